import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { baseConfigShape, ConfigError, loadConfig, storageConfigShape } from '@crv/kit'

const positive = (fallback: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback)

export const configShape = {
  ...baseConfigShape('ai', 8084),
  REDIS_URL: z.url().optional(),
  ...storageConfigShape,

  /** Which speech engine synthesises: eSpeak NG in-process, the espeak-ng program, or a cloud. */
  TTS_ENGINE: z.enum(['espeak', 'espeak-cli', 'polly', 'openai']).default('espeak'),
  /** One voice for every language instead of the engine's per-language choice. */
  TTS_VOICE: z.string().min(1).max(100).optional(),
  /** MP3 bitrate; mono 22.05 kHz keeps a word near 2 KB. */
  TTS_MP3_KBPS: z.coerce
    .number()
    .int()
    .refine((v) => [24, 32, 40, 48, 56, 64].includes(v), 'one of 24, 32, 40, 48, 56, 64')
    .default(40),
  ESPEAK_PATH: z.string().min(1).default('espeak-ng'),
  POLLY_REGION: z.string().min(1).optional(),
  POLLY_ENDPOINT: z.url().optional(),
  POLLY_ENGINE: z.enum(['standard', 'neural']).default('standard'),
  OPENAI_TTS_URL: z.url().optional(),
  OPENAI_TTS_API_KEY: z.string().min(1).optional(),
  OPENAI_TTS_MODEL: z.string().min(1).default('tts-1'),

  SENTENCE_ENGINE: z.enum(['templates', 'openai']).default('templates'),
  OPENAI_CHAT_URL: z.url().optional(),
  OPENAI_CHAT_API_KEY: z.string().min(1).optional(),
  OPENAI_CHAT_MODEL: z.string().min(1).optional(),

  /** The descriptor vocabulary's files, read once for each word's part of speech. */
  VOCABULARY_DIR: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL('../../descriptors/data', import.meta.url))),

  /** Speech jobs one worker process runs at once (and in-process synthesis without Redis). */
  AI_WORKER_CONCURRENCY: positive(2, 64),
  /** How long a request waits for its speech job before answering 503 'speech is busy'. */
  SPEECH_TIMEOUT_MS: positive(10_000, 120_000),
  /** The BullMQ queue's name (separate names let several deployments share one Redis). */
  SPEECH_QUEUE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('speech'),
  /** A job whose worker stops renewing its lock for this long is handed to another worker. */
  SPEECH_JOB_LOCK_MS: positive(30_000, 600_000),
  /** Speech requests per window: signed-in user, anonymous IP address, any IP address. */
  AI_RATE_LIMIT_USER: positive(120, 1_000_000_000),
  AI_RATE_LIMIT_ANONYMOUS: positive(30, 1_000_000_000),
  AI_RATE_LIMIT_IP: positive(600, 1_000_000_000),
  AI_RATE_LIMIT_WINDOW_MS: positive(60_000, 86_400_000),
  /** The speech cache's size budget: past it, the least recently used entries are removed. */
  SPEECH_CACHE_MAX_MB: positive(256, 1_000_000),
  /** Cached speech unused this long is removed. */
  SPEECH_CACHE_TTL_DAYS: positive(30, 3650),
  /** How often the cache is swept. */
  SPEECH_CACHE_SWEEP_SECONDS: positive(600, 86_400),
}

export type AiConfig = ReturnType<typeof loadAiConfig>

/** A cloud engine is only offered when it is configured; a half-configured one stops the start. */
function checkEngines(config: z.infer<z.ZodObject<typeof configShape>>): void {
  const missing: string[] = []
  if (config.TTS_ENGINE === 'polly' && !config.POLLY_REGION) {
    missing.push('  POLLY_REGION: required with TTS_ENGINE=polly (e.g. eu-west-1) (not set)')
  }
  if (config.TTS_ENGINE === 'openai' && !config.OPENAI_TTS_URL) {
    missing.push(
      '  OPENAI_TTS_URL: required with TTS_ENGINE=openai (the server whose /v1/audio/speech speaks) (not set)',
    )
  }
  if (config.SENTENCE_ENGINE === 'openai') {
    if (!config.OPENAI_CHAT_URL)
      missing.push(
        '  OPENAI_CHAT_URL: required with SENTENCE_ENGINE=openai (the server whose /v1/chat/completions writes) (not set)',
      )
    if (!config.OPENAI_CHAT_MODEL)
      missing.push('  OPENAI_CHAT_MODEL: required with SENTENCE_ENGINE=openai (not set)')
  }
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`)
}

export const loadAiConfig = (source: NodeJS.ProcessEnv = process.env) => {
  const config = loadConfig(configShape, source)
  checkEngines(config)
  return config
}
