// Fixed-window request counts for speech: per signed-in user and per client (an IPv4 address or
// an IPv6 /64), stricter for anonymous callers. Counts live in Redis when configured (shared by
// every ai instance) and in memory otherwise, or while Redis cannot be reached.
import { AppError, clientKey } from '@crv/kit'
import type { Redis } from '@crv/kit'

export interface RateLimits {
  user: number
  anonymous: number
  ip: number
  windowMs: number
}

export interface Caller {
  userId: string | null
  ip: string
}

interface Counter {
  /** The count after this hit, and the milliseconds until its window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>
}

class MemoryCounter implements Counter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()
  private sweptAt = 0

  async hit(key: string, windowMs: number) {
    const now = Date.now()
    if (now - this.sweptAt > windowMs) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k)
      this.sweptAt = now
    }
    let window = this.windows.get(key)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs }
      this.windows.set(key, window)
    }
    window.count += 1
    return { count: window.count, resetMs: window.resetAt - now }
  }
}

class RedisCounter implements Counter {
  private readonly redis: Redis
  private readonly fallback: Counter

  constructor(redis: Redis, fallback: Counter) {
    this.redis = redis
    this.fallback = fallback
  }

  async hit(key: string, windowMs: number) {
    try {
      const results = await this.redis
        .multi()
        .set(key, '0', 'PX', windowMs, 'NX')
        .incr(key)
        .pttl(key)
        .exec()
      const count = Number(results?.[1]?.[1])
      const ttl = Number(results?.[2]?.[1])
      if (!Number.isFinite(count)) throw new Error('no count')
      return { count, resetMs: ttl > 0 ? ttl : windowMs }
    } catch {
      // Redis down: limit in this process rather than not at all.
      return this.fallback.hit(key, windowMs)
    }
  }
}

export class RateLimiter {
  private readonly counter: Counter
  private readonly limits: RateLimits
  private readonly prefix: string

  constructor(limits: RateLimits, redis: Redis | null, prefix: string) {
    const memory = new MemoryCounter()
    this.counter = redis ? new RedisCounter(redis, memory) : memory
    this.limits = limits
    this.prefix = prefix
  }

  /** Counts the request; throws 429 `rate_limited` with the seconds to wait when over a limit. */
  async check(caller: Caller): Promise<void> {
    const { windowMs } = this.limits
    const client = clientKey(caller.ip)
    const checks: [string, number][] = caller.userId
      ? [
          [`${this.prefix}:user:${caller.userId}`, this.limits.user],
          [`${this.prefix}:ip:${client}`, this.limits.ip],
        ]
      : [[`${this.prefix}:anon:${client}`, this.limits.anonymous]]
    for (const [key, limit] of checks) {
      const { count, resetMs } = await this.counter.hit(key, windowMs)
      if (count > limit) {
        throw new AppError('rate_limited', 429, 'Too many requests. Please try again later', {
          retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
        })
      }
    }
  }
}
