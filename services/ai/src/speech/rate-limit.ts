// Speech requests per signed-in user and per client (an IPv4 address or an IPv6 /64), stricter
// for anonymous callers, in fixed windows. Counts live in Redis when configured (shared by every
// ai instance) and in memory otherwise, or while Redis cannot be reached.
import { clientKey, SharedFixedWindowLimiter } from '@crv/kit'
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

export class RateLimiter {
  private readonly user: SharedFixedWindowLimiter
  private readonly anonymous: SharedFixedWindowLimiter
  private readonly ip: SharedFixedWindowLimiter
  private readonly prefix: string

  constructor(limits: RateLimits, redis: Redis | null, prefix: string) {
    const { windowMs } = limits
    this.user = new SharedFixedWindowLimiter(redis, { limit: limits.user, windowMs })
    this.anonymous = new SharedFixedWindowLimiter(redis, { limit: limits.anonymous, windowMs })
    this.ip = new SharedFixedWindowLimiter(redis, { limit: limits.ip, windowMs })
    this.prefix = prefix
  }

  /** Counts the request: 0 when it is within the caller's limits, else the seconds to wait. */
  async take(caller: Caller): Promise<number> {
    const client = clientKey(caller.ip)
    const checks: [SharedFixedWindowLimiter, string][] = caller.userId
      ? [
          [this.user, `${this.prefix}:user:${caller.userId}`],
          [this.ip, `${this.prefix}:ip:${client}`],
        ]
      : [[this.anonymous, `${this.prefix}:anon:${client}`]]
    for (const [limiter, key] of checks) {
      const retryAfterSeconds = await limiter.take(key)
      if (retryAfterSeconds > 0) return retryAfterSeconds
    }
    return 0
  }
}
