import { describe, expect, it } from 'vitest'
import {
  drawCandidateSet,
  eligibleClass,
  familiarityOf,
  poolOf,
  targetsOf,
} from '../src/sessions/candidate-sets.ts'
import type { DrawablePool } from '../src/sessions/candidate-sets.ts'

const DAY = 24 * 3_600_000
const now = Date.UTC(2026, 10, 27)
const target = (id: string, shownDaysAgo: number | null, frontloading: string | null = null) => ({
  id,
  frontloading,
  lastShownAt: shownDaysAgo === null ? null : now - shownDaysAgo * DAY,
})
const ids = (pool: DrawablePool, places: Int32Array) =>
  targetsOf(pool, places)
    .map((t) => t.id)
    .sort()

describe('the class a set is drawn from', () => {
  it('is the pictures never shown, while there are enough of them', () => {
    const pool = poolOf([
      ...['a', 'b', 'c', 'd', 'e'].map((id) => target(id, null)),
      target('f', 200),
      target('g', 3),
    ])
    expect(ids(pool, eligibleClass(pool, 5, now))).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(familiarityOf(pool, eligibleClass(pool, 5, now), now)).toEqual({
      familiarity: 'unseen',
      lastShownAt: null,
    })
  })

  it('then the pictures shown 180 days ago or more, with the never shown', () => {
    const pool = poolOf([
      target('a', null),
      target('b', 180),
      target('c', 181),
      target('d', 400),
      target('e', 900),
      target('f', 179),
      target('g', 1),
    ])
    const rested = eligibleClass(pool, 5, now)
    expect(ids(pool, rested)).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(familiarityOf(pool, rested, now)).toEqual({
      familiarity: 'rested',
      lastShownAt: now - 180 * DAY,
    })
  })

  it('then the half of the pool shown longest ago, keeping pictures shown together together', () => {
    // Twelve pictures, shown in sets at days 10, 8, 6 and 2 (three each): at N = 5 the class
    // takes the ten shown longest ago, and the set shown at day 6 wholly (twelve would split it).
    const targets = [10, 8, 6, 2].flatMap((days) =>
      [0, 1, 2].map((k) => target(`${days}-${k}`, days)),
    )
    const pool = poolOf(targets)
    const recent = eligibleClass(pool, 5, now)
    expect(recent).toHaveLength(9)
    expect(new Set(targetsOf(pool, recent).map((t) => t.lastShownAt))).toEqual(
      new Set([now - 10 * DAY, now - 8 * DAY, now - 6 * DAY]),
    )
    expect(familiarityOf(pool, recent, now)).toEqual({
      familiarity: 'recent',
      lastShownAt: now - 6 * DAY,
    })
    // A small pool: every picture, as long as there are enough for one set.
    expect(eligibleClass(poolOf(targets.slice(0, 6)), 5, now)).toHaveLength(6)
    expect(eligibleClass(poolOf(targets.slice(0, 4)), 5, now)).toHaveLength(0)
  })

  it('comes only from the drawable places (a contributor never meets their own targets)', () => {
    const all = poolOf(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => target(id, null)))
    // b and e are this viewer's own contributions.
    const pool = { ...all, drawable: Int32Array.from([0, 2, 3, 5, 6]) }
    expect(ids(pool, eligibleClass(pool, 5, now))).toEqual(['a', 'c', 'd', 'f', 'g'])
    for (let i = 0; i < 50; i++) {
      expect(drawCandidateSet(pool, 5)?.candidates.sort()).toEqual(['a', 'c', 'd', 'f', 'g'])
    }
    expect(drawCandidateSet({ ...pool, drawable: Int32Array.from([0, 2, 3, 5]) }, 5)).toBeNull()
  })

  it('never runs out: the fair draw always gives a set while the pool has enough pictures', () => {
    const pool = poolOf(
      Array.from({ length: 10 }, (_, i) => target(`t${i}`, i % 3, i < 5 ? 'a structure' : null)),
    )
    for (let i = 0; i < 200; i++) {
      const set = drawCandidateSet(pool, 5)
      expect(set?.candidates).toHaveLength(5)
      expect(set?.candidates).toContain(set?.targetId)
    }
  })
})
