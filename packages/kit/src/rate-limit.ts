// One fixed-window counter for the limits services keep themselves (speech per caller, analytics
// events per client, trials per client): a count per key that starts afresh when its window ends.
// The gateway's limit on every API route (@fastify/rate-limit) applies on top of these.
import type { Redis } from './redis.ts'

export interface FixedWindow {
  /** What one key may take per window. */
  limit: number
  windowMs: number
}

/** Keys kept before expired windows are cleared out (under many client addresses). */
const MAX_KEYS = 10_000

const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/**
 * Counts in this process. `take` answers 0 when `cost` more fit in the key's window (and counts
 * them), else the seconds to wait until the window ends (and counts nothing).
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()
  private readonly limit: number
  private readonly windowMs: number
  private sweptAt = 0

  constructor({ limit, windowMs }: FixedWindow) {
    this.limit = limit
    this.windowMs = windowMs
  }

  take(key: string, cost = 1, now = Date.now()): number {
    const window = this.windows.get(key)
    if (!window || now - window.start >= this.windowMs) {
      // Expired windows go before the map grows without bound, at most once a window.
      if (this.windows.size >= MAX_KEYS || now - this.sweptAt >= this.windowMs) {
        for (const [k, w] of this.windows)
          if (now - w.start >= this.windowMs) this.windows.delete(k)
        this.sweptAt = now
      }
      if (cost > this.limit) return secondsUntil(this.windowMs)
      this.windows.set(key, { start: now, count: cost })
      return 0
    }
    if (window.count + cost > this.limit) return secondsUntil(window.start + this.windowMs - now)
    window.count += cost
    return 0
  }
}

/**
 * Counts in Redis when there is one, shared by every instance of a service (a key's window starts
 * at its first request anywhere), and in this process without one or while Redis cannot be
 * reached. Answers as FixedWindowLimiter does.
 */
export class SharedFixedWindowLimiter {
  private readonly redis: Redis | null
  private readonly memory: FixedWindowLimiter
  private readonly limit: number
  private readonly windowMs: number

  constructor(redis: Redis | null, window: FixedWindow) {
    this.redis = redis
    this.memory = new FixedWindowLimiter(window)
    this.limit = window.limit
    this.windowMs = window.windowMs
  }

  async take(key: string, cost = 1): Promise<number> {
    if (!this.redis) return this.memory.take(key, cost)
    try {
      const results = await this.redis
        .multi()
        .set(key, '0', 'PX', this.windowMs, 'NX')
        .incrby(key, cost)
        .pttl(key)
        .exec()
      const count = Number(results?.[1]?.[1])
      const ttl = Number(results?.[2]?.[1])
      if (!Number.isFinite(count)) throw new Error('no count')
      return count > this.limit ? secondsUntil(ttl > 0 ? ttl : this.windowMs) : 0
    } catch {
      // Redis down: limit in this process rather than not at all.
      return this.memory.take(key, cost)
    }
  }
}
