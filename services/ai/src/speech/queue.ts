// The speech queue on Redis (BullMQ): the ai service adds jobs and waits for them; worker
// processes (src/worker.ts) run them. Jobs survive a worker's death (stalled jobs go back to
// the queue when the lock runs out) and, with Redis AOF, a Redis restart.
import { Queue, QueueEvents, Worker } from 'bullmq'
import type { Job } from 'bullmq'
import { AppError, createRedis } from '@crv/kit'
import type { Redis } from '@crv/kit'
import { speechBusy } from './speech.ts'
import type { SpeechJob, SpeechQueueStatus, SpeechRunner } from './speech.ts'

export const SPEECH_JOB = 'speak'

export const jobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 500 },
  // Finished jobs only matter for the admin's counts; the MP3 lives in object storage.
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 86_400, count: 1000 },
} as const

/** BullMQ's connections: blocking commands wait as long as they must (never fail fast). */
const connect = (url: string, name: string): Redis => createRedis(url, { name, blocking: true })

async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

export class QueueRunner implements SpeechRunner {
  readonly queue: Queue
  private readonly events: QueueEvents
  private readonly connections: Redis[]

  constructor(url: string, queueName: string) {
    const queueConnection = connect(url, 'ai-queue')
    const eventsConnection = connect(url, 'ai-queue-events')
    this.connections = [queueConnection, eventsConnection]
    for (const c of this.connections) c.on('error', () => {})
    this.queue = new Queue(queueName, {
      connection: queueConnection,
      defaultJobOptions: jobOptions,
    })
    this.events = new QueueEvents(queueName, { connection: eventsConnection })
    this.queue.on('error', () => {})
    this.events.on('error', () => {})
  }

  /** Resolves once the event stream is being read, so no job's completion can be missed. */
  async ready(): Promise<void> {
    await this.events.waitUntilReady()
  }

  async run(job: SpeechJob, timeoutMs: number): Promise<undefined> {
    const deadline = Date.now() + timeoutMs
    // While Redis is unreachable the add itself waits: it shares the request's deadline.
    const added = await within(this.queue.add(SPEECH_JOB, job), timeoutMs, speechBusy)
    try {
      await added.waitUntilFinished(this.events, Math.max(1, deadline - Date.now()))
    } catch (err) {
      const message = (err as Error).message
      if (/timed out/i.test(message)) throw speechBusy()
      throw new AppError('speech_failed', 502, 'Speech could not be generated. Please try again.')
    }
    return undefined
  }

  async status(): Promise<SpeechQueueStatus> {
    const counts = await within(
      Promise.all([
        this.queue.getJobCounts(
          'waiting',
          'prioritized',
          'active',
          'failed',
          'completed',
          'delayed',
        ),
        this.queue.getWorkersCount(),
      ]),
      3_000,
      () => new AppError('queue_unavailable', 503, 'The speech queue cannot be reached right now'),
    )
    const [c, workers] = counts
    return {
      mode: 'queue',
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      failed: c.failed ?? 0,
      completed: c.completed ?? 0,
      delayed: c.delayed ?? 0,
      workers,
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()])
    for (const c of this.connections) c.disconnect()
  }
}

export interface SpeechWorkerOptions {
  url: string
  queueName: string
  concurrency: number
  lockMs: number
  handle: (job: SpeechJob) => Promise<unknown>
}

/** A worker of the speech queue; `close()` lets the jobs it is running finish first. */
export function startSpeechWorker(options: SpeechWorkerOptions): {
  worker: Worker
  close: () => Promise<void>
} {
  const connection = connect(options.url, 'ai-worker')
  connection.on('error', () => {})
  const worker = new Worker(
    options.queueName,
    async (job: Job<SpeechJob>) => {
      await options.handle(job.data)
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      // Checked as often as a lock can run out, so a dead worker's job is taken over quickly.
      stalledInterval: Math.min(options.lockMs, 30_000),
      maxStalledCount: 2,
    },
  )
  return {
    worker,
    close: async () => {
      await worker.close()
      connection.disconnect()
    },
  }
}
