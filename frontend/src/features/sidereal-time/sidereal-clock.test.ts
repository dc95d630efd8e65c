import { describe, expect, it } from 'vitest'
import {
  advanceSidereal,
  formatSidereal,
  localInputToUtcIso,
  nextSiderealWindow,
  SIDEREAL_RATE,
} from './sidereal-clock.ts'

const HOUR = 3_600_000

describe('the live sidereal clock', () => {
  it('gains 3 min 56.6 s on the clock each day', () => {
    const after = advanceSidereal(100, 24 * HOUR)
    const gainedSeconds = ((after - 100) / 15) * 3600
    expect(gainedSeconds).toBeCloseTo(236.555, 2)
  })

  it('wraps past 360°', () => {
    expect(advanceSidereal(359, HOUR)).toBeCloseTo(15 * SIDEREAL_RATE - 1, 9)
  })

  it('formats degrees as sidereal HH:MM:SS', () => {
    expect(formatSidereal(202.5)).toBe('13:30:00')
    expect(formatSidereal(359.99999)).toBe('23:59:59')
    expect(formatSidereal(0)).toBe('00:00:00')
  })
})

describe('the next 12.5–14.5 h LST window', () => {
  const at = new Date('2024-06-21T00:00:00Z')

  it('before the window: enters after the sidereal gap, leaves two sidereal hours later', () => {
    const w = nextSiderealWindow(10 * 15, at) // LST 10 h
    expect(w.inside).toBe(false)
    expect((w.enters.getTime() - at.getTime()) / HOUR).toBeCloseTo(2.5 / SIDEREAL_RATE, 5)
    expect((w.leaves.getTime() - w.enters.getTime()) / HOUR).toBeCloseTo(2 / SIDEREAL_RATE, 5)
  })

  it('inside the window: leaves at 14.5 h and enters again about a day later', () => {
    const w = nextSiderealWindow(13.5 * 15, at)
    expect(w.inside).toBe(true)
    expect((w.leaves.getTime() - at.getTime()) / HOUR).toBeCloseTo(1 / SIDEREAL_RATE, 5)
    expect((w.enters.getTime() - at.getTime()) / HOUR).toBeCloseTo(23 / SIDEREAL_RATE, 5)
  })

  it('after the window: waits through midnight LST', () => {
    const w = nextSiderealWindow(20 * 15, at)
    expect(w.inside).toBe(false)
    expect((w.enters.getTime() - at.getTime()) / HOUR).toBeCloseTo(16.5 / SIDEREAL_RATE, 5)
  })

  it('exactly at 12.5 h the window is open now', () => {
    const w = nextSiderealWindow(12.5 * 15, at)
    expect(w.inside).toBe(true)
    expect((w.leaves.getTime() - at.getTime()) / HOUR).toBeCloseTo(2 / SIDEREAL_RATE, 5)
  })
})

describe('the typed date-time', () => {
  it('is read as local time and sent as UTC', () => {
    const iso = localInputToUtcIso('2024-06-21T05:14')
    expect(iso).toBe(new Date(2024, 5, 21, 5, 14).toISOString())
  })

  it('is left out when blank', () => {
    expect(localInputToUtcIso('  ')).toBeUndefined()
  })
})
