import { setTimeout as sleep } from 'node:timers/promises'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { repeatingJob, retryingJob } from '../src/index.ts'

describe('repeatingJob', () => {
  it('runs from onReady until onClose, and not before or after', async () => {
    const app = Fastify()
    let runs = 0
    await app.register(repeatingJob, {
      name: 'count',
      everyMs: 10,
      run: async () => {
        runs += 1
      },
    })
    await sleep(40)
    expect(runs).toBe(0)
    await app.ready()
    await sleep(60)
    expect(runs).toBeGreaterThan(1)
    await app.close()
    const atClose = runs
    await sleep(40)
    expect(runs).toBe(atClose)
  })

  it('runs at once on ready when asked, never two runs at a time, and goes on after a failure', async () => {
    const app = Fastify({ logger: false })
    let runs = 0
    let running = 0
    let most = 0
    await app.register(repeatingJob, {
      name: 'slow',
      everyMs: 5,
      runOnReady: true,
      run: async () => {
        runs += 1
        running += 1
        most = Math.max(most, running)
        await sleep(30)
        running -= 1
        if (runs === 1) throw new Error('first run fails')
      },
    })
    await app.ready()
    expect(runs).toBe(1)
    await sleep(100)
    await app.close()
    expect(most).toBe(1)
    expect(runs).toBeGreaterThan(1)
  })
})

describe('retryingJob', () => {
  it('tries once at start-up and is done when that succeeds', async () => {
    const app = Fastify()
    let runs = 0
    await app.register(retryingJob, { retryMs: 5, run: async () => void (runs += 1) })
    expect(runs).toBe(1)
    await app.ready()
    await sleep(30)
    expect(runs).toBe(1)
    await app.close()
  })

  it('tries again after a failure from onReady until a run succeeds', async () => {
    const app = Fastify()
    let runs = 0
    await app.register(retryingJob, {
      retryMs: 5,
      run: async () => {
        runs += 1
        if (runs < 3) throw new Error('not yet')
      },
    })
    await sleep(30)
    expect(runs).toBe(1)
    await app.ready()
    await sleep(60)
    expect(runs).toBe(3)
    await app.close()
  })

  it('stops trying when the server closes', async () => {
    const app = Fastify()
    let runs = 0
    await app.register(retryingJob, {
      retryMs: 10,
      run: async () => {
        runs += 1
        throw new Error('never')
      },
    })
    await app.ready()
    await app.close()
    await sleep(40)
    expect(runs).toBe(1)
  })
})
