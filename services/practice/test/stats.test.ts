import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  hoursApart,
  inLstWindow,
  MIN_PER_WINDOW,
  practiceStatistics,
  rankStatistics,
  sumOfRanksP,
} from '../src/sessions/stats.ts'
import type { StatsSession } from '../src/sessions/stats.ts'

const judged = (
  candidates: 5 | 10,
  rank: number,
  more: Partial<StatsSession> = {},
): StatsSession => ({
  candidates,
  status: 'judged',
  rank,
  analyticRank: rank,
  lockLstHours: null,
  figureOfMerit: null,
  chanceFigureOfMerit: null,
  byCategory: null,
  ...more,
})

const abandoned = (candidates: 5 | 10): StatsSession => ({
  ...judged(candidates, 1),
  status: 'abandoned',
  rank: null,
  analyticRank: null,
})

/** A BigInt ratio as the nearest double, even far below 1e-308. */
function ratio(numerator: bigint, denominator: bigint): number {
  const shift = denominator.toString().length - numerator.toString().length + 25
  return Number(`${(numerator * 10n ** BigInt(Math.max(0, shift))) / denominator}e-${shift}`)
}

/** Exact P(S ≤ s) for every s, by counting ways with BigInt (no shortcut shared with the code). */
function exactSumOfRanksCdf(counts: number[]): Map<number, number> {
  let ways = new Map<number, bigint>([[0, 1n]])
  for (const n of counts) {
    const next = new Map<number, bigint>()
    for (const [sum, w] of ways) {
      for (let r = 1; r <= n; r++) next.set(sum + r, (next.get(sum + r) ?? 0n) + w)
    }
    ways = next
  }
  const total = counts.reduce((a, n) => a * BigInt(n), 1n)
  const cdf = new Map<number, number>()
  let below = 0n
  for (const sum of [...ways.keys()].sort((a, b) => a - b)) {
    below += ways.get(sum) ?? 0n
    cdf.set(sum, ratio(below, total))
  }
  return cdf
}

/** Exact P(X ≥ k) for every k, X the first places of sessions with these candidate counts. */
function exactHitsTail(counts: number[]): number[] {
  let ways: bigint[] = [1n]
  for (const n of counts) {
    const next: bigint[] = new Array<bigint>(ways.length + 1).fill(0n)
    ways.forEach((w, hits) => {
      next[hits] = (next[hits] ?? 0n) + w * BigInt(n - 1)
      next[hits + 1] = (next[hits + 1] ?? 0n) + w
    })
    ways = next
  }
  const total = counts.reduce((a, n) => a * BigInt(n), 1n)
  return ways.map((_, k) =>
    ratio(
      ways.slice(k).reduce((a, b) => a + b, 0n),
      total,
    ),
  )
}

const closeTo = (actual: number, expected: number, relative: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * expected)

describe('sumOfRanksP', () => {
  it('equals a brute-force enumeration for three sessions of 5 and one of 10, at every sum', () => {
    const counts = [5, 5, 5, 10]
    const ways = new Map<number, number>()
    for (let a = 1; a <= 5; a++)
      for (let b = 1; b <= 5; b++)
        for (let c = 1; c <= 5; c++)
          for (let d = 1; d <= 10; d++) ways.set(a + b + c + d, (ways.get(a + b + c + d) ?? 0) + 1)
    let below = 0
    for (let sum = 4; sum <= 25; sum++) {
      below += ways.get(sum) ?? 0
      expect(sumOfRanksP(counts, sum)).toBeCloseTo(below / 1250, 14)
    }
    expect(sumOfRanksP(counts, 3)).toBe(0)
    expect(sumOfRanksP(counts, 25)).toBe(1)
  })

  it('agrees with exact counting to 1e-9 of the value over 40 sessions, far tails included', () => {
    const counts = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 5 : 10))
    const exact = exactSumOfRanksCdf(counts)
    expect(exact.get(40)).toBeLessThan(1e-35)
    for (const [sum, p] of exact) closeTo(sumOfRanksP(counts, sum), p, 1e-9)
  })

  it('gives 300 first places out of 10 their exact 1e-300, not 0', () => {
    const p = sumOfRanksP(new Array<number>(300).fill(10), 300)
    expect(p).toBeGreaterThan(0)
    closeTo(p, 1e-300, 1e-9)
  })

  it('keeps its digits below the normal doubles: 320 sessions of 10 summing to 322', () => {
    // 1 way at 320, 320 at 321, 320 + C(320, 2) at 322, out of 10^320.
    closeTo(sumOfRanksP(new Array<number>(320).fill(10), 322), 51681e-320, 1e-6)
  })

  it('gives a record beyond the smallest double the smallest positive number', () => {
    expect(sumOfRanksP(new Array<number>(400).fill(10), 400)).toBe(Number.MIN_VALUE)
  })

  it('grows with the observed sum and is 1 at the largest possible sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(5, 10), { minLength: 1, maxLength: 60 }),
        fc.nat(),
        fc.nat(),
        (counts, a, b) => {
          const max = counts.reduce((x, n) => x + n, 0)
          const span = max - counts.length + 1
          const [low, high] = [counts.length + (a % span), counts.length + (b % span)].sort(
            (x, y) => x - y,
          ) as [number, number]
          expect(sumOfRanksP(counts, low)).toBeLessThanOrEqual(sumOfRanksP(counts, high))
          expect(sumOfRanksP(counts, max)).toBe(1)
          expect(sumOfRanksP(counts, max - 1)).toBeLessThan(1)
        },
      ),
    )
  })
})

describe('rankStatistics', () => {
  it('gives the sum of ranks, its expectation, z, effect size and exact p of judged sessions', () => {
    const sessions = [judged(5, 1), judged(5, 2), judged(10, 3), judged(10, 1)]
    const stats = rankStatistics(sessions, 'self')
    const variance = 2 * (24 / 12) + 2 * (99 / 12)
    const z = (3 + 3 + 5.5 + 5.5 - 7) / Math.sqrt(variance)
    expect(stats).toMatchObject({ sumOfRanks: 7, expectedSumOfRanks: 17, hits: 2 })
    expect(stats.z).toBeCloseTo(z, 4)
    expect(stats.effectSize).toBeCloseTo(z / 2, 4)
    expect(stats.sumOfRanksP).toBe(Number(sumOfRanksP([5, 5, 10, 10], 7).toPrecision(4)))
    expect(stats.expectedHits).toBeCloseTo(0.6, 10)
  })

  it('counts an abandoned session at the chance rank: z and p stay, trials and effect size move', () => {
    const sessions = [judged(10, 1), judged(10, 2), judged(5, 1), judged(10, 4)]
    const before = rankStatistics(sessions, 'self')
    const after = rankStatistics([...sessions, abandoned(10), abandoned(5)], 'self')
    expect(after.z).toBe(before.z)
    expect(after.sumOfRanksP).toBe(before.sumOfRanksP)
    expect(after.sumOfRanks).toBe(before.sumOfRanks + 5.5 + 3)
    expect(after.expectedSumOfRanks).toBe(before.expectedSumOfRanks + 5.5 + 3)
    expect(after.effectSize).toBeCloseTo((before.z ?? 0) / Math.sqrt(6), 3)
    expect(after.hits).toBe(before.hits)
    expect(after.expectedHits).toBeCloseTo(before.expectedHits + 0.1 + 0.2, 10)
    // Two more trials without a success make the same first places likelier by chance.
    expect(after.hitsP).toBeGreaterThan(before.hitsP ?? 1)
  })

  it('has no z, effect size or sum-of-ranks p when every session was abandoned', () => {
    const stats = rankStatistics([abandoned(5), abandoned(10)], 'self')
    expect(stats).toMatchObject({ z: null, effectSize: null, sumOfRanksP: null, hits: 0 })
    expect(stats.hitsP).toBe(1)
  })

  it('has no probabilities at all without sessions', () => {
    expect(rankStatistics([], 'self')).toMatchObject({ sumOfRanksP: null, hitsP: null, z: null })
  })

  it('gives hitsP 1 for no first places', () => {
    expect(rankStatistics([judged(10, 3), judged(5, 2), judged(10, 7)], 'self').hitsP).toBe(1)
  })

  it('gives the exact Poisson-binomial tail for every number of first places', () => {
    const counts = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 5 : 10) as 5 | 10)
    const exact = exactHitsTail(counts)
    for (let hits = 0; hits <= counts.length; hits++) {
      const sessions = counts.map((n, i) => judged(n, i < hits ? 1 : 2))
      expect(rankStatistics(sessions, 'self').hitsP).toBe(Number(exact[hits]?.toPrecision(4)))
    }
  })

  it('keeps a far-from-chance record positive: hitsP and the sum-of-ranks p are never 0', () => {
    const stats = rankStatistics(new Array(500).fill(judged(10, 1)) as StatsSession[], 'self')
    expect(stats.hitsP).toBeGreaterThan(0)
    expect(stats.sumOfRanksP).toBeGreaterThan(0)
    const strong = rankStatistics(new Array(250).fill(judged(10, 1)) as StatsSession[], 'self')
    closeTo(strong.hitsP ?? 0, 1e-250, 1e-3)
  })

  it("reads the analytic judge's ranks, an unknown one counting at chance", () => {
    const sessions = [
      judged(10, 1, { analyticRank: 6 }),
      judged(10, 2, { analyticRank: 1 }),
      judged(5, 1, { analyticRank: null }),
    ]
    const analytic = rankStatistics(sessions, 'analytic')
    expect(analytic).toMatchObject({ sumOfRanks: 6 + 1 + 3, hits: 1 })
    expect(analytic.sumOfRanksP).toBe(Number(sumOfRanksP([10, 10], 7).toPrecision(4)))
    expect(rankStatistics(sessions, 'self')).toMatchObject({ sumOfRanks: 4, hits: 2 })
  })
})

describe('practiceStatistics', () => {
  const categories = ['visual', 'sound', 'smell'] as const

  it('counts judged and abandoned sessions and gives both judges side by side', () => {
    const stats = practiceStatistics(
      [judged(10, 1, { analyticRank: 4 }), judged(5, 2, { analyticRank: 2 }), abandoned(10)],
      categories,
    )
    expect(stats).toMatchObject({ judged: 2, abandoned: 1, sumOfRanks: 1 + 2 + 5.5, hits: 1 })
    expect(stats.analytic).toMatchObject({ sumOfRanks: 4 + 2 + 5.5, hits: 0 })
  })

  it('shows significance from 10 closed sessions, abandoned ones included', () => {
    const nine = Array.from({ length: 9 }, () => judged(5, 3))
    expect(practiceStatistics(nine, categories).significanceShown).toBe(false)
    expect(practiceStatistics([...nine, abandoned(5)], categories).significanceShown).toBe(true)
  })

  it('gives the mean figure of merit beside its chance baseline over judged sessions', () => {
    const stats = practiceStatistics(
      [
        judged(5, 1, { figureOfMerit: 0.5, chanceFigureOfMerit: 0.1 }),
        judged(5, 2, { figureOfMerit: 0.25, chanceFigureOfMerit: 0.2 }),
        abandoned(5),
      ],
      categories,
    )
    expect(stats.meanFigureOfMerit).toBe(0.375)
    expect(stats.meanChanceFigureOfMerit).toBe(0.15)
    const none = practiceStatistics([abandoned(10)], categories)
    expect(none.meanFigureOfMerit).toBeNull()
    expect(none.meanChanceFigureOfMerit).toBeNull()
  })

  it('counts, per category in the order given, sessions that described there and matched', () => {
    const stats = practiceStatistics(
      [
        judged(5, 1, { byCategory: { sound: { described: 2, matched: 1 } } }),
        judged(5, 2, {
          byCategory: { sound: { described: 1, matched: 0 }, smell: { described: 0, matched: 0 } },
        }),
        { ...abandoned(5), byCategory: { visual: { described: 3, matched: 3 } } },
      ],
      categories,
    )
    expect(stats.byCategory).toEqual([
      { category: 'visual', sessions: 0, matched: 0 },
      { category: 'sound', sessions: 2, matched: 1 },
      { category: 'smell', sessions: 0, matched: 0 },
    ])
  })

  it('splits judged sessions by sidereal time at the lock, unknown apart', () => {
    const stats = practiceStatistics(
      [
        judged(10, 1, { lockLstHours: 13 }),
        judged(10, 3, { lockLstHours: 14.4 }),
        judged(5, 5, { lockLstHours: 2 }),
        judged(5, 1, { lockLstHours: null }),
        { ...abandoned(5), lockLstHours: 13.5 },
      ],
      categories,
    )
    expect(stats.sidereal).toMatchObject({
      windowCentreHours: 13.5,
      windowHalfWidthHours: 1,
      minimumPerWindow: MIN_PER_WINDOW,
      inside: { sessions: 2, meanRank: 2, hits: 1 },
      outside: { sessions: 1, meanRank: 5, hits: 0 },
      unknown: 1,
      difference: null,
    })
    expect(stats.sidereal.inside.z).toBeCloseTo((11 - 4) / Math.sqrt(2 * (99 / 12)), 4)
  })

  const windows = (perSide: number, inside: [5 | 10, number], outside: [5 | 10, number]) => [
    ...Array.from({ length: perSide }, () => judged(inside[0], inside[1], { lockLstHours: 13.5 })),
    ...Array.from({ length: perSide }, () => judged(outside[0], outside[1], { lockLstHours: 1 })),
  ]

  it('compares the windows only from 10 judged sessions on each side', () => {
    expect(
      practiceStatistics(windows(9, [10, 1], [10, 10]), categories).sidereal.difference,
    ).toBeNull()
    const withAbandoned = [
      ...windows(9, [10, 1], [10, 10]),
      { ...abandoned(10), lockLstHours: 13.5 },
    ]
    expect(practiceStatistics(withAbandoned, categories).sidereal.difference).toBeNull()
    expect(
      practiceStatistics(windows(10, [10, 1], [10, 10]), categories).sidereal.difference,
    ).not.toBeNull()
  })

  // References: mpmath at 50 digits, erfc(z/√2) for the z of each case.
  it.each([
    [
      'first places against last places, 10 each',
      10,
      [10, 1],
      [10, 10],
      7.0065,
      2.4437014980581933e-12,
    ],
    ['second against third of 5, 10 each', 10, [5, 2], [5, 3], 1.5811, 0.11384629800665805],
    [
      'first places against last places, 30 each',
      30,
      [10, 1],
      [10, 10],
      12.1356,
      6.840881185196727e-34,
    ],
  ] as const)(
    'gives the difference of standardised scores and its two-sided p: %s',
    (_, perSide, inside, outside, z, p) => {
      const difference = practiceStatistics(windows(perSide, [...inside], [...outside]), categories)
        .sidereal.difference
      expect(difference?.z).toBe(z)
      expect(difference?.p).toBe(Number(p.toPrecision(4)))
    },
  )

  it('keeps a window difference too far out for a double positive', () => {
    const difference = practiceStatistics(windows(1000, [10, 1], [10, 10]), categories).sidereal
      .difference
    expect(difference?.p).toBe(Number.MIN_VALUE)
  })
})

describe('sidereal window', () => {
  it('measures hours around the clock', () => {
    expect(hoursApart(23.5, 0.5)).toBe(1)
    expect(hoursApart(2, 14)).toBe(12)
  })

  it('holds local sidereal times within an hour of 13.5 h', () => {
    expect(inLstWindow(12.5)).toBe(true)
    expect(inLstWindow(14.5)).toBe(true)
    expect(inLstWindow(14.6)).toBe(false)
    expect(inLstWindow(1.5)).toBe(false)
  })
})
