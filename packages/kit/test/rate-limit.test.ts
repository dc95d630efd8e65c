import { describe, expect, it } from 'vitest'
import type { Redis } from '../src/index.ts'
import { FixedWindowLimiter, SharedFixedWindowLimiter } from '../src/index.ts'

describe('FixedWindowLimiter', () => {
  it('lets a key take up to its limit per window, then says how many seconds to wait', () => {
    const limiter = new FixedWindowLimiter({ limit: 2, windowMs: 60_000 })
    const start = 1_000_000
    expect(limiter.take('a', 1, start)).toBe(0)
    expect(limiter.take('a', 1, start + 1000)).toBe(0)
    expect(limiter.take('a', 1, start + 30_500)).toBe(30)
    // Another key has its own window; a refused take counted nothing.
    expect(limiter.take('b', 1, start + 30_500)).toBe(0)
    expect(limiter.take('a', 1, start + 59_999)).toBe(1)
    expect(limiter.take('a', 1, start + 60_000)).toBe(0)
  })

  it('counts a cost, not calls, and refuses a cost above the limit for a whole window', () => {
    const limiter = new FixedWindowLimiter({ limit: 120, windowMs: 60_000 })
    const now = 5_000
    expect(limiter.take('10.0.0.1', 50, now)).toBe(0)
    expect(limiter.take('10.0.0.1', 50, now)).toBe(0)
    expect(limiter.take('10.0.0.1', 50, now)).toBeGreaterThan(0)
    expect(limiter.take('10.0.0.1', 20, now)).toBe(0)
    expect(limiter.take('10.0.0.3', 121, now)).toBe(60)
    expect(limiter.take('10.0.0.3', 120, now)).toBe(0)
  })

  it('says what the key has counted and when its window ends, let through or not', () => {
    const limiter = new FixedWindowLimiter({ limit: 2, windowMs: 60_000 })
    expect(limiter.taken('a', 1, 0)).toEqual({ wait: 0, count: 1, resetMs: 60_000 })
    expect(limiter.taken('a', 1, 10_000)).toEqual({ wait: 0, count: 2, resetMs: 50_000 })
    expect(limiter.taken('a', 1, 20_000)).toEqual({ wait: 40, count: 2, resetMs: 40_000 })
  })

  it('keeps counting the keys still in their window after clearing out expired ones', () => {
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 1000 })
    for (let i = 0; i < 10_001; i++) limiter.take(`old-${i}`, 1, 0)
    expect(limiter.take('recent', 1, 500)).toBe(0)
    expect(limiter.take('old-1', 1, 1000)).toBe(0)
    expect(limiter.take('recent', 1, 1001)).toBe(1)
  })
})

/** The few Redis commands the shared limiter sends, over one map of counts. */
function fakeRedis(options: { down?: boolean } = {}) {
  const counts = new Map<string, { count: number; expiresAt: number }>()
  const redis = {
    multi() {
      const steps: (() => unknown)[] = []
      const chain = {
        set(key: string, value: string, _px: 'PX', ms: number) {
          steps.push(() => {
            const hit = counts.get(key)
            if (hit && hit.expiresAt > Date.now()) return null
            counts.set(key, { count: Number(value), expiresAt: Date.now() + ms })
            return 'OK'
          })
          return chain
        },
        incrby(key: string, by: number) {
          steps.push(() => {
            const hit = counts.get(key) as { count: number }
            hit.count += by
            return hit.count
          })
          return chain
        },
        pttl(key: string) {
          steps.push(() => (counts.get(key)?.expiresAt ?? 0) - Date.now())
          return chain
        },
        async exec() {
          if (options.down) throw new Error('Connection is closed.')
          return steps.map((step) => [null, step()])
        },
      }
      return chain
    },
  }
  return redis as unknown as Redis
}

describe('SharedFixedWindowLimiter', () => {
  it('counts in Redis: two instances share one window per key', async () => {
    const redis = fakeRedis()
    const one = new SharedFixedWindowLimiter(redis, { limit: 2, windowMs: 60_000 })
    const two = new SharedFixedWindowLimiter(redis, { limit: 2, windowMs: 60_000 })
    expect(await one.take('user:1')).toBe(0)
    expect(await two.take('user:1')).toBe(0)
    const wait = await one.take('user:1')
    expect(wait).toBeGreaterThanOrEqual(59)
    expect(wait).toBeLessThanOrEqual(60)
    expect(await two.take('user:2')).toBe(0)
  })

  it('still limits, in this process, while Redis cannot be reached or without Redis', async () => {
    for (const redis of [fakeRedis({ down: true }), null]) {
      const limiter = new SharedFixedWindowLimiter(redis, { limit: 1, windowMs: 60_000 })
      expect(await limiter.take('anon:10.0.0.1')).toBe(0)
      expect(await limiter.take('anon:10.0.0.1')).toBeGreaterThan(0)
    }
  })

  it('lets every take through while Redis cannot be reached, when told to', async () => {
    const limiter = new SharedFixedWindowLimiter(
      fakeRedis({ down: true }),
      { limit: 1, windowMs: 60_000 },
      { whenRedisFails: 'allow' },
    )
    for (let i = 0; i < 3; i++) expect(await limiter.take('anon:10.0.0.1')).toBe(0)
  })

  it('says what the key has counted in Redis and when its window ends', async () => {
    const limiter = new SharedFixedWindowLimiter(fakeRedis(), { limit: 1, windowMs: 60_000 })
    expect(await limiter.taken('user:3')).toMatchObject({ wait: 0, count: 1 })
    const refused = await limiter.taken('user:3')
    expect(refused.wait).toBeGreaterThan(0)
    expect(refused.count).toBe(2)
    expect(refused.resetMs).toBeGreaterThan(59_000)
  })
})
