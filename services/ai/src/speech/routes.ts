import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { components } from '@crv/contracts'
import { isTrainingLanguage, trainingLanguages } from './languages.ts'
import type { RateLimiter } from './rate-limit.ts'
import type { SentenceEngine } from './sentences/sentence-engine.ts'
import type { SpeechService } from './speech.ts'

type Schemas = components['schemas']

/** Operations that make speech: rate-limited, and limited to the trained languages. */
export const SPEECH_OPERATIONS = new Set(['synthesizeSpeech', 'generateSentenceWithSpeech'])

export function aiHandlers(speech: SpeechService, sentences: SentenceEngine): Handlers {
  return {
    synthesizeSpeech: async (request, reply) => {
      const body = request.body as Schemas['SpeechRequest']
      const { mp3, cached } = await speech.speak(body.word.trim(), body.language)
      return reply
        .type('audio/mpeg')
        .header('x-speech-cache', cached ? 'hit' : 'miss')
        .header('cache-control', 'private, max-age=86400')
        .send(mp3)
    },

    generateSentenceWithSpeech: async (request, reply) => {
      const body = request.body as Schemas['SentenceRequest']
      const sentence = await sentences.sentence(body.descriptor.trim(), body.language)
      const { mp3, cached } = await speech.speak(sentence, body.language)
      reply.header('x-speech-cache', cached ? 'hit' : 'miss')
      return { sentence, audioData: mp3.toString('base64') } satisfies Schemas['SentenceWithSpeech']
    },

    getSpeechQueue: async () => speech.status(),
  }
}

/**
 * Before the body is validated: count the request against the caller's limits, then refuse
 * the vocabulary's other languages (ja, zh) with a message that says why, rather than the
 * schema's bare enum error.
 */
export function speechGuard(limiter: RateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!SPEECH_OPERATIONS.has(request.routeOptions.config.operationId ?? '')) return
    try {
      await limiter.check({ userId: request.user?.id ?? null, ip: request.ip })
    } catch (err) {
      const wait = (err as AppError).details as { retryAfterSeconds?: number } | undefined
      if (wait?.retryAfterSeconds) reply.header('retry-after', String(wait.retryAfterSeconds))
      throw err
    }
    const body = request.body as Record<string, unknown> | undefined
    const text = body?.word ?? body?.descriptor
    if (typeof text === 'string' && text.trim() === '') {
      throw new AppError('invalid_request', 400, 'Please enter a word or phrase')
    }
    const language = body?.language
    if (typeof language === 'string' && !isTrainingLanguage(language)) {
      throw new AppError(
        'unsupported_language',
        400,
        `Speech and example sentences are available in ${trainingLanguages.join(', ')} only`,
        { language, supported: trainingLanguages },
      )
    }
  }
}
