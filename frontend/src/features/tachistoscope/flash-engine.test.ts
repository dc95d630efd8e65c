import { describe, expect, it } from 'vitest'
import { flash, framesFor, measureFrameInterval } from './flash-engine.ts'
import type { FrameClock } from './flash-engine.ts'

/** A frame clock that runs its callbacks at the given frame times, one frame per step. */
function fakeClock(frameTimes: (n: number) => number) {
  let queue: ((time: number) => void)[] = []
  let frame = 0
  let handles = 0
  const clock: FrameClock = {
    request(callback) {
      queue.push(callback)
      handles += 1
      return handles
    },
    cancel() {},
  }
  const runFrames = async (count: number) => {
    for (let i = 0; i < count && queue.length > 0; i++) {
      const due = queue
      queue = []
      const time = frameTimes(frame)
      frame += 1
      for (const callback of due) callback(time)
      await Promise.resolve()
    }
  }
  return { clock, runFrames }
}

const at60 = (n: number) => 1000 + n * (1000 / 60)

describe('framesFor', () => {
  it('rounds the exposure to whole frames, at least one', () => {
    expect(framesFor(100, 1000 / 60)).toBe(6)
    expect(framesFor(1000, 1000 / 60)).toBe(60)
    expect(framesFor(500, 1000 / 60)).toBe(30)
    expect(framesFor(50, 1000 / 60)).toBe(3)
    expect(framesFor(5, 1000 / 60)).toBe(1)
    expect(framesFor(100, 1000 / 144)).toBe(14)
  })
})

describe('measureFrameInterval', () => {
  it('finds 60 Hz and ignores one late frame', async () => {
    const { clock, runFrames } = fakeClock((n) => at60(n) + (n === 10 ? 9 : 0))
    const measured = measureFrameInterval(clock, 20)
    await runFrames(25)
    expect(await measured).toBeCloseTo(1000 / 60, 5)
  })

  it('finds 144 Hz', async () => {
    const { clock, runFrames } = fakeClock((n) => n * (1000 / 144))
    const measured = measureFrameInterval(clock, 10)
    await runFrames(15)
    expect(await measured).toBeCloseTo(1000 / 144, 5)
  })
})

describe('flash', () => {
  for (const [exposure, frames] of [
    [1000 / 60, 1],
    [100, 6],
    [500, 30],
    [1000, 60],
  ] as const) {
    it(`shows the picture for exactly ${frames} frame(s) at 60 Hz`, async () => {
      const { clock, runFrames } = fakeClock(at60)
      const events: string[] = []
      const frameMs = 1000 / 60
      const done = flash({
        clock,
        frameMs,
        frames: framesFor(exposure, frameMs),
        exposureMs: exposure,
        show: () => events.push('show'),
        hide: () => events.push('hide'),
      })
      await runFrames(frames + 5)
      const record = await done
      expect(events).toEqual(['show', 'hide'])
      expect(record.plannedFrames).toBe(frames)
      expect(record.shownFrames).toBe(frames)
      expect(record.shownMs).toBeCloseTo(frames * frameMs, 5)
      expect(record.frameTimes).toHaveLength(frames + 1)
    })
  }

  it('does not lengthen the exposure when a frame is dropped', async () => {
    // Frame 3 never comes: timestamps jump by two intervals there.
    const { clock, runFrames } = fakeClock((n) => at60(n >= 3 ? n + 1 : n))
    const done = flash({
      clock,
      frameMs: 1000 / 60,
      frames: 6,
      exposureMs: 100,
      show() {},
      hide() {},
    })
    await runFrames(10)
    const record = await done
    expect(record.shownFrames).toBe(6)
    expect(record.frameTimes).toHaveLength(6)
  })

  it('ends early when aborted', async () => {
    const { clock, runFrames } = fakeClock(at60)
    const controller = new AbortController()
    const done = flash({
      clock,
      frameMs: 1000 / 60,
      frames: 600,
      exposureMs: 10_000,
      show() {},
      hide() {},
      signal: controller.signal,
    })
    await runFrames(3)
    controller.abort()
    await runFrames(2)
    const record = await done
    expect(record.aborted).toBe(true)
    expect(record.shownFrames).toBe(3)
  })
})
