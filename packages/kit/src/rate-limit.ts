// One fixed-window counter for the limits services keep themselves (speech per caller, analytics
// events per client, trials per client): a count per key that starts afresh when its window ends.
// The gateway's limit on every API route counts with the same classes.
import type { Redis } from './redis.ts'

export interface FixedWindow {
  /** What one key may take per window. */
  limit: number
  windowMs: number
}

/** Keys kept before expired windows are cleared out (under many client addresses). */
const MAX_KEYS = 10_000

const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/** One take's answer: seconds to wait (0: taken), and the key's window as it now stands. */
export interface Taken {
  wait: number
  /** Counted in the key's window, this take included when it was let through. */
  count: number
  /** Until the window ends. */
  resetMs: number
}

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
    return this.taken(key, cost, now).wait
  }

  /** As `take`, with the key's count and window (for rate-limit headers). */
  taken(key: string, cost = 1, now = Date.now()): Taken {
    const window = this.windows.get(key)
    if (!window || now - window.start >= this.windowMs) {
      // Expired windows go before the map grows without bound, at most once a window.
      if (this.windows.size >= MAX_KEYS || now - this.sweptAt >= this.windowMs) {
        for (const [k, w] of this.windows)
          if (now - w.start >= this.windowMs) this.windows.delete(k)
        this.sweptAt = now
      }
      if (cost > this.limit)
        return { wait: secondsUntil(this.windowMs), count: 0, resetMs: this.windowMs }
      this.windows.set(key, { start: now, count: cost })
      return { wait: 0, count: cost, resetMs: this.windowMs }
    }
    const resetMs = window.start + this.windowMs - now
    if (window.count + cost > this.limit)
      return { wait: secondsUntil(resetMs), count: window.count, resetMs }
    window.count += cost
    return { wait: 0, count: window.count, resetMs }
  }
}

/**
 * Counts in Redis when there is one, shared by every instance of a service (a key's window starts
 * at its first request anywhere), and in this process without one. While Redis cannot be reached
 * it counts in this process (`whenRedisFails: 'memory'`), or lets every take through (`'allow'`:
 * the gateway, where an outage of the limiter must not become an outage of the app). Answers as
 * FixedWindowLimiter does.
 */
export class SharedFixedWindowLimiter {
  private readonly redis: Redis | null
  private readonly memory: FixedWindowLimiter
  private readonly limit: number
  private readonly windowMs: number
  private readonly whenRedisFails: 'memory' | 'allow'

  constructor(
    redis: Redis | null,
    window: FixedWindow,
    { whenRedisFails = 'memory' }: { whenRedisFails?: 'memory' | 'allow' } = {},
  ) {
    this.redis = redis
    this.memory = new FixedWindowLimiter(window)
    this.limit = window.limit
    this.windowMs = window.windowMs
    this.whenRedisFails = whenRedisFails
  }

  async take(key: string, cost = 1): Promise<number> {
    return (await this.taken(key, cost)).wait
  }

  /** As `take`, with the key's count and window (for rate-limit headers). */
  async taken(key: string, cost = 1): Promise<Taken> {
    if (!this.redis) return this.memory.taken(key, cost)
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
      const resetMs = ttl > 0 ? ttl : this.windowMs
      return { wait: count > this.limit ? secondsUntil(resetMs) : 0, count, resetMs }
    } catch {
      if (this.whenRedisFails === 'allow') return { wait: 0, count: 0, resetMs: this.windowMs }
      // Redis down: limit in this process rather than not at all.
      return this.memory.taken(key, cost)
    }
  }
}
