// Background work of a service (sweepers, refreshers) as a plugin: it starts when the server is
// ready and stops when it closes, so a test's app or a stopping server leaves no timer behind and
// no run starts against a database or store that is being closed.
import type { FastifyInstance } from 'fastify'

export interface RepeatingJobOptions {
  /** Named in the log line of a failed run. */
  name: string
  everyMs: number
  /** One run. A rejection is logged as a warning; the job goes on at the next tick. */
  run: () => Promise<unknown>
  /** Also run once as the server becomes ready (default: first after `everyMs`). */
  runOnReady?: boolean
}

/**
 * Runs `run` every `everyMs` from onReady to onClose. A tick that finds the previous run still
 * going is skipped (runs never overlap); the timer does not hold the process open.
 */
export async function repeatingJob(app: FastifyInstance, options: RepeatingJobOptions) {
  let timer: NodeJS.Timeout | undefined
  let running = false
  const tick = async () => {
    if (running) return
    running = true
    try {
      await options.run()
    } catch (err) {
      app.log.warn({ err: (err as Error).message, job: options.name }, 'background job failed')
    } finally {
      running = false
    }
  }
  app.addHook('onReady', async () => {
    timer = setInterval(() => void tick(), options.everyMs)
    timer.unref()
    if (options.runOnReady) void tick()
  })
  app.addHook('onClose', async () => clearInterval(timer))
}

export interface RetryingJobOptions {
  /** The wait after a failed run before the next. */
  retryMs: number
  /** One attempt; a rejection schedules the next. */
  run: () => Promise<unknown>
}

/**
 * Tries `run` once while the plugin loads (start-up waits for it) and, should that fail, again
 * every `retryMs` from onReady until a run succeeds or the server closes.
 */
export async function retryingJob(app: FastifyInstance, options: RetryingJobOptions) {
  let timer: NodeJS.Timeout | undefined
  let closed = false
  const attempt = async (): Promise<boolean> => {
    try {
      await options.run()
      return true
    } catch {
      return false
    }
  }
  const retry = () => {
    if (closed) return
    timer = setTimeout(() => {
      void attempt().then((done) => {
        if (!done) retry()
      })
    }, options.retryMs)
    timer.unref()
  }
  const done = await attempt()
  app.addHook('onReady', async () => {
    if (!done) retry()
  })
  app.addHook('onClose', async () => {
    closed = true
    clearTimeout(timer)
  })
}
