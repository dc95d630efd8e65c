// `npm run worker -w services/ai`: a speech worker process. Takes jobs from the BullMQ queue on
// REDIS_URL and runs the same handler the ai service runs in-process without Redis. Scale by
// running more of these (compose: `--scale ai-worker=N`). On SIGTERM it takes no new job,
// finishes the ones it is running, and exits.
import { ConfigError } from '@crv/kit'
import { createStorage } from '@crv/kit/storage'
import { loadAiConfig } from './config.ts'
import type { AiConfig } from './config.ts'
import { createSpeechEngine } from './engines/index.ts'
import { EspeakCliEngine } from './engines/espeak-cli.ts'
import { warmUpEspeak } from './engines/espeak-wasm.ts'
import { startSpeechWorker } from './speech/queue.ts'
import { processSpeechJob } from './speech/speech.ts'
import { loadWordFacts } from './vocabulary.ts'

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: 100 }

let config: AiConfig
try {
  config = loadAiConfig()
  if (!config.REDIS_URL)
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: a speech worker needs the queue on Redis (not set)',
    )
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  process.stderr.write(`${err.message}\n`)
  process.exit(78)
}
const redisUrl = config.REDIS_URL ?? ''

/** One JSON line per event, in the services' log shape. */
function log(level: keyof typeof LEVELS, msg: string, extra: Record<string, unknown> = {}) {
  if (LEVELS[level] < LEVELS[config.LOG_LEVEL]) return
  const line = {
    level: LEVELS[level],
    time: Date.now(),
    service: 'ai-worker',
    pid: process.pid,
    msg,
    ...extra,
  }
  process.stdout.write(`${JSON.stringify(line)}\n`)
}

const storage = createStorage(config)
const engine = createSpeechEngine(config, loadWordFacts(config.VOCABULARY_DIR))
try {
  if (engine instanceof EspeakCliEngine) await engine.check()
  if (config.TTS_ENGINE === 'espeak') await warmUpEspeak()
} catch (err) {
  process.stderr.write(`ai-worker could not start: ${(err as Error).message}\n`)
  process.exit(1)
}

const { worker, close } = startSpeechWorker({
  url: redisUrl,
  queueName: config.SPEECH_QUEUE,
  concurrency: config.AI_WORKER_CONCURRENCY,
  lockMs: config.SPEECH_JOB_LOCK_MS,
  handle: (job) => processSpeechJob(engine, storage, job),
})
worker.on('active', (job) => log('debug', 'job started', { jobId: job.id }))
worker.on('completed', (job) =>
  log('info', 'job done', { jobId: job.id, ms: (job.finishedOn ?? 0) - (job.processedOn ?? 0) }),
)
worker.on('failed', (job, err) =>
  log('warn', 'job failed', { jobId: job?.id, attempt: job?.attemptsMade, err: err.message }),
)
worker.on('stalled', (jobId) => log('warn', 'stalled job taken back', { jobId }))
worker.on('error', (err) => log('error', 'worker error', { err: err.message }))
await worker.waitUntilReady()
log('info', 'speech worker ready', {
  queue: config.SPEECH_QUEUE,
  concurrency: config.AI_WORKER_CONCURRENCY,
  engine: engine.id,
})
// For a supervisor (tests, the launcher) that started this process with an IPC channel.
process.send?.({ ready: true })

let stopping = false
const stop = async (signal: string) => {
  if (stopping) {
    // A second signal: stop now (the running jobs go back to the queue when their lock expires).
    process.exit(1)
  }
  stopping = true
  log('info', 'finishing the running jobs, then stopping', { signal })
  const force = setTimeout(() => process.exit(1), Math.max(config.SHUTDOWN_GRACE_MS, 1_000) * 6)
  force.unref()
  await close()
  await engine.close?.()
  log('info', 'stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
