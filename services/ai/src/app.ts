import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin, redisPlugin, repeatingJob, retryingJob } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { createStorage } from '@crv/kit/storage'
import type { AiConfig } from './config.ts'
import { createSpeechEngine } from './engines/index.ts'
import type { SpeechEngine } from './engines/index.ts'
import { EspeakCliEngine } from './engines/espeak-cli.ts'
import { ensureGestaltClips } from './gestalts/gestalts.ts'
import speechGuard from './speech/guard.ts'
import { QueueRunner } from './speech/queue.ts'
import { RateLimiter } from './speech/rate-limit.ts'
import { speechHandlers } from './speech/routes.ts'
import { sweepSpeechCache } from './speech/speech-cache.ts'
import { InProcessRunner, processSpeechJob, SpeechService } from './speech/speech.ts'
import type { SpeechRunner } from './speech/speech.ts'
import {
  OpenAiSentenceEngine,
  ShippedSentenceEngine,
  TemplateSentenceEngine,
} from './sentences/sentence-engine.ts'
import type { SentenceEngine } from './sentences/sentence-engine.ts'
import { loadWordFacts } from './vocabulary.ts'

export interface AiAppOptions {
  config: AiConfig
  verifyToken?: TokenVerifier
}

declare module 'fastify' {
  interface FastifyInstance {
    speech: SpeechService
  }
}

/** The ai service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function aiApp(app: FastifyInstance, { config, verifyToken }: AiAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(redisPlugin, { url: config.REDIS_URL })

  const storage = createStorage(config)
  const facts = loadWordFacts(config.VOCABULARY_DIR)
  if (facts.size === 0) {
    app.log.warn(
      { dir: config.VOCABULARY_DIR },
      'no descriptor vocabulary found: example sentences use the neutral templates',
    )
  }
  const engine: SpeechEngine = createSpeechEngine(config, facts)
  if (engine instanceof EspeakCliEngine) await engine.check()
  // Vocabulary words get their reviewed sentences; custom words the chat server or the templates.
  const forCustomWords: SentenceEngine =
    config.SENTENCE_ENGINE === 'openai'
      ? new OpenAiSentenceEngine({
          url: config.OPENAI_CHAT_URL ?? '',
          apiKey: config.OPENAI_CHAT_API_KEY,
          model: config.OPENAI_CHAT_MODEL ?? '',
          timeoutMs: Math.min(config.SPEECH_TIMEOUT_MS, 8_000),
          fallback: new TemplateSentenceEngine(facts),
          onFallback: (reason) => app.log.warn({ reason }, 'chat sentence failed; used a template'),
        })
      : new TemplateSentenceEngine(facts)
  const sentences = new ShippedSentenceEngine(facts, forCustomWords)

  let runner: SpeechRunner
  if (config.REDIS_URL) {
    const queue = new QueueRunner(config.REDIS_URL, config.SPEECH_QUEUE)
    runner = queue
    // A Redis that is down at start leaves the service up but not ready (like redisPlugin).
    await Promise.race([queue.ready(), new Promise((r) => setTimeout(r, 2_000))])
  } else {
    runner = new InProcessRunner(
      (job) => processSpeechJob(engine, storage, job),
      config.AI_WORKER_CONCURRENCY,
    )
  }
  const speech = new SpeechService({ engine, storage, runner, timeoutMs: config.SPEECH_TIMEOUT_MS })
  app.decorate('speech', speech)

  app.addHook('onClose', async () => {
    await runner.close()
    await engine.close?.()
  })

  // Anonymous callers choose the texts, so the cache is bounded in age and size.
  await app.register(repeatingJob, {
    name: 'speech-cache-sweep',
    everyMs: config.SPEECH_CACHE_SWEEP_SECONDS * 1000,
    runOnReady: true,
    run: () =>
      sweepSpeechCache(
        storage,
        {
          maxBytes: config.SPEECH_CACHE_MAX_MB * 1024 * 1024,
          ttlMs: config.SPEECH_CACHE_TTL_DAYS * 86_400_000,
        },
        speech.use,
      )
        .then((report) => {
          if (report.removed > 0) app.log.info(report, 'speech cache swept')
        })
        .catch((err: Error) => app.log.warn({ err: err.message }, 'speech cache sweep failed')),
  })

  // The ideogram page's clips, before the service says it is ready (the media service serves
  // them). If the engine fails now the service stays up, not ready, and tries again.
  let clipsProblem: string | null = null
  await app.register(retryingJob, {
    retryMs: 30_000,
    run: async () => {
      try {
        const made = await ensureGestaltClips(engine, storage)
        if (made.length > 0) app.log.info({ made }, 'gestalt clips generated')
        clipsProblem = null
      } catch (err) {
        clipsProblem = `gestalt clips: ${(err as Error).message}`
        app.log.error({ err }, 'could not generate the gestalt clips; retrying in 30 s')
        throw err
      }
    },
  })
  app.readiness.set('gestalt-clips', async () => {
    if (clipsProblem) throw new Error(clipsProblem)
  })

  const limiter = new RateLimiter(
    {
      user: config.AI_RATE_LIMIT_USER,
      anonymous: config.AI_RATE_LIMIT_ANONYMOUS,
      ip: config.AI_RATE_LIMIT_IP,
      windowMs: config.AI_RATE_LIMIT_WINDOW_MS,
    },
    app.redis,
    `crv:ai:rate:${config.SPEECH_QUEUE}`,
  )
  await app.register(speechGuard, { limiter })
  await app.register(contractRoutesPlugin, {
    tag: 'ai',
    handlers: speechHandlers({ speech, sentences }),
  })
}

export default fp(aiApp, { name: 'ai-app' })
