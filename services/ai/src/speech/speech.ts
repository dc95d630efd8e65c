// The speech domain: a cache key per (engine, voice, language, text), the job that fills it,
// and the request path that serves from the cache or waits for the job.
import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { AppError } from '@crv/kit'
import type { ObjectStorage } from '@crv/kit/storage'
import type { SpeechEngine } from '../engines/speech-engine.ts'
import type { SpeechLanguage } from '../languages.ts'
import { SpeechCacheUse } from './speech-cache.ts'

export interface SpeechJob {
  text: string
  language: SpeechLanguage
  /** Where the MP3 goes: the content hash the request computed. */
  key: string
}

export interface SpeechQueueStatus {
  mode: 'queue' | 'in-process'
  waiting: number
  active: number
  failed: number
  completed: number
  delayed: number
  workers: number
}

/** Runs speech jobs: BullMQ workers when Redis is configured, this process otherwise. */
export interface SpeechRunner {
  /** Resolves once the job's MP3 is stored; rejects with 503 `speech_busy` after `timeoutMs`. */
  run(job: SpeechJob, timeoutMs: number): Promise<Buffer | undefined>
  status(): Promise<SpeechQueueStatus>
  close(): Promise<void>
}

export const speechBusy = () => new AppError('speech_busy', 503, 'speech is busy, try again')

/** Same engine, voice, language and text: same object, so a repeated word is synthesised once. */
export function speechKey(engine: SpeechEngine, language: SpeechLanguage, text: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([engine.id, engine.voiceFor(language), language, text]))
    .digest('hex')
  return `speech/${hash}.mp3`
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array))
  return Buffer.concat(chunks)
}

export async function readObject(storage: ObjectStorage, key: string): Promise<Buffer | null> {
  const found = await storage.get(key)
  return found ? readAll(found.body) : null
}

/**
 * The job handler, shared by the workers and the in-process runner. A job that finds its
 * object already stored (a retry, or the same word asked twice at once) does nothing.
 */
export async function processSpeechJob(
  engine: SpeechEngine,
  storage: ObjectStorage,
  job: SpeechJob,
): Promise<Buffer | undefined> {
  if (await storage.head(job.key)) return undefined
  const mp3 = await engine.synthesize(job.text, job.language)
  await storage.put(job.key, mp3, { contentType: 'audio/mpeg' })
  return mp3
}

export class SpeechService {
  readonly engine: SpeechEngine
  private readonly storage: ObjectStorage
  private readonly runner: SpeechRunner
  private readonly timeoutMs: number
  /** What this process served, so the cache sweep removes the least recently used first. */
  readonly use = new SpeechCacheUse()

  constructor(options: {
    engine: SpeechEngine
    storage: ObjectStorage
    runner: SpeechRunner
    timeoutMs: number
  }) {
    this.engine = options.engine
    this.storage = options.storage
    this.runner = options.runner
    this.timeoutMs = options.timeoutMs
  }

  /** The MP3 of the text, from the cache or from a new job. */
  async speak(text: string, language: SpeechLanguage): Promise<{ mp3: Buffer; cached: boolean }> {
    const key = speechKey(this.engine, language, text)
    this.use.touch(key)
    const hit = await readObject(this.storage, key)
    if (hit) return { mp3: hit, cached: true }
    const made = await this.runner.run({ text, language, key }, this.timeoutMs)
    const mp3 = made ?? (await readObject(this.storage, key))
    if (!mp3)
      throw new AppError('speech_failed', 502, 'Speech could not be generated. Please try again.')
    return { mp3, cached: false }
  }

  status(): Promise<SpeechQueueStatus> {
    return this.runner.status()
  }
}

/**
 * Without Redis: the same handler in this process, at most `concurrency` at once; a request
 * that cannot start within its timeout gets 503 instead of waiting on.
 */
export class InProcessRunner implements SpeechRunner {
  private active = 0
  private completed = 0
  private failed = 0
  private readonly waiting: (() => void)[] = []
  private readonly handle: (job: SpeechJob) => Promise<Buffer | undefined>
  private readonly concurrency: number

  constructor(handle: (job: SpeechJob) => Promise<Buffer | undefined>, concurrency: number) {
    this.handle = handle
    this.concurrency = concurrency
  }

  async run(job: SpeechJob, timeoutMs: number): Promise<Buffer | undefined> {
    await this.slot(timeoutMs)
    try {
      const out = await this.handle(job)
      this.completed += 1
      return out
    } catch (err) {
      this.failed += 1
      throw err
    } finally {
      this.active -= 1
      this.waiting.shift()?.()
    }
  }

  private slot(timeoutMs: number): Promise<void> {
    if (this.active < this.concurrency) {
      this.active += 1
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer)
        this.active += 1
        resolve()
      }
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(go)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(speechBusy())
      }, timeoutMs)
      this.waiting.push(go)
    })
  }

  async status(): Promise<SpeechQueueStatus> {
    return {
      mode: 'in-process',
      waiting: this.waiting.length,
      active: this.active,
      failed: this.failed,
      completed: this.completed,
      delayed: 0,
      workers: 1,
    }
  }

  async close(): Promise<void> {}
}
