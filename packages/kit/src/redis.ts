import { Redis } from 'ioredis'

/**
 * A Redis connection that fails fast while Redis is down (no offline queue), so callers can
 * decide what to do instead of hanging; it reconnects by itself with capped backoff.
 */
export function createRedis(
  url: string,
  options: { name?: string; blocking?: boolean } = {},
): Redis {
  return new Redis(url, {
    connectionName: options.name,
    lazyConnect: false,
    connectTimeout: 2_000,
    enableOfflineQueue: options.blocking === true,
    // BullMQ's blocking connections need null here; plain commands give up after one retry.
    maxRetriesPerRequest: options.blocking ? null : 1,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  })
}

/** Resolves once connected or after `ms`, whichever comes first; never rejects. */
export function waitUntilReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      redis.off('ready', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    redis.once('ready', done)
  })
}

export type { Redis }
