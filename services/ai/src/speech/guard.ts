// Before the body is validated: count the request against the caller's limits, then refuse the
// vocabulary's other languages (ja, zh) with a message that says why, rather than the schema's
// bare enum error.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '@crv/kit'
import { isTrainingLanguage, trainingLanguages } from '../languages.ts'
import type { RateLimiter } from './rate-limit.ts'

/** Operations that make speech: rate-limited, and limited to the trained languages. */
export const SPEECH_OPERATIONS = new Set(['synthesizeSpeech', 'generateSentenceWithSpeech'])

/** The text and language of a body not yet validated (anything may have been sent). */
function spoken(body: unknown): { text: unknown; language: unknown } {
  if (typeof body !== 'object' || body === null) return { text: undefined, language: undefined }
  const word = 'word' in body ? body.word : undefined
  const descriptor = 'descriptor' in body ? body.descriptor : undefined
  return { text: word ?? descriptor, language: 'language' in body ? body.language : undefined }
}

async function speechGuard(app: FastifyInstance, { limiter }: { limiter: RateLimiter }) {
  app.addHook('preValidation', async (request, reply) => {
    if (!SPEECH_OPERATIONS.has(request.routeOptions.config.operationId ?? '')) return
    const retryAfterSeconds = await limiter.take({
      userId: request.user?.id ?? null,
      ip: request.ip,
    })
    if (retryAfterSeconds > 0) {
      reply.header('retry-after', String(retryAfterSeconds))
      throw new AppError('rate_limited', 429, 'Too many requests. Please try again later', {
        retryAfterSeconds,
      })
    }
    const { text, language } = spoken(request.body)
    if (typeof text === 'string' && text.trim() === '') {
      throw new AppError('invalid_request', 400, 'Please enter a word or phrase')
    }
    if (typeof language === 'string' && !isTrainingLanguage(language)) {
      throw new AppError(
        'unsupported_language',
        400,
        `Speech and example sentences are available in ${trainingLanguages.join(', ')} only`,
        { language, supported: trainingLanguages },
      )
    }
  })
}

export default fp(speechGuard, { name: 'ai-speech-guard' })
