// Statistics over a viewer's closed sessions (pure: no SQL, no HTTP). Formulas, as the contract's
// getPracticeStats states them; session i has N_i candidates and rank r_i:
//
// - Under chance r_i is uniform on 1..N_i: mean (N_i+1)/2, variance (N_i²−1)/12. An abandoned
//   session enters at the chance rank (N_i+1)/2, adds it to the observed and the expected sum alike
//   and adds no variance (its rank is fixed).
// - Sum of ranks S = Σ r_i, expected Σ (N_i+1)/2, z = (Σ (N_i+1)/2 − S) / sqrt(Σ_judged (N_i²−1)/12)
//   (positive is better than chance), effect size z/√n over all n closed sessions.
// - sumOfRanksP = P(Σ_judged U_i ≤ Σ_judged r_i), U_i uniform on 1..N_i: the exact distribution of
//   the sum, by dynamic programming over its lower tail (abandoned ranks are constants, left out).
// - First places: each closed session a trial with p = 1/N_i (an abandoned one never a success);
//   hitsP = P(X ≥ k), the exact Poisson-binomial tail.
// - Sidereal windows compare the standardised rank scores u = ((N+1)/2 − r) / sqrt((N²−1)/12)
//   (mean 0, variance 1 under chance): z = (ū_in − ū_out) / sqrt(1/n_in + 1/n_out), two-sided p.
//
// No probability is rounded to 0: they keep 4 significant digits, and one too small for a double
// (below about 5e-324) is returned as Number.MIN_VALUE.

import type { components } from '@crv/contracts'

type Schemas = components['schemas']

export interface StatsSession {
  candidates: 5 | 10
  status: 'judged' | 'abandoned'
  /** Self-judged rank 1..N; null when abandoned. */
  rank: number | null
  /** The analytic judge's rank; null when abandoned or unknown (counted as abandoned for it). */
  analyticRank: number | null
  /** Local sidereal time at the lock. */
  lockLstHours: number | null
  figureOfMerit: number | null
  chanceFigureOfMerit: number | null
  byCategory: Record<string, { described: number; matched: number }> | null
}

/** Spottiswoode (1997): effect sizes were larger within an hour of 13.5 h local sidereal time. */
export const LST_WINDOW = { centreHours: 13.5, halfWidthHours: 1 } as const

/** Judged sessions each window needs before inside and outside are compared. */
export const MIN_PER_WINDOW = 10

const SIGNIFICANCE_FROM = 10

const round4 = (x: number) => Math.round(x * 10_000) / 10_000

/** 4 significant digits; a positive probability stays positive. */
const probability = (p: number) =>
  Math.min(1, Math.max(Number(p.toPrecision(4)), p > 0 ? Number.MIN_VALUE : 0))

const fromLog = (logP: number) =>
  logP < Math.log(Number.MIN_VALUE) ? Number.MIN_VALUE : Math.max(Math.exp(logP), Number.MIN_VALUE)

// Lower-tail dynamic programming. The array holds P(partial sum = s) for s ≤ t only: partial sums
// never decrease, so what passes t never comes back. Each step is one convolution. The array is
// rescaled when its largest entry falls below RESCALE_BELOW (the scale kept as a logarithm), so a
// far tail does not underflow, and entries at either end below a floor are dropped: a state's
// share of the tail is at most its mass, so the mass dropped bounds the error. The floor comes
// from a saddle-point estimate of the tail; if the mass dropped exceeds 1e-9 of the tail found,
// the run is repeated with a floor from the tail found (a lower bound) that provably loses less
// than 1e-12 of it. The floor never goes below FLUSH times the array's scale (no denormals), so a tail under
// about 1e-270 is a positive lower bound rather than exact.
const RESCALE_BELOW = 1e-20
const FLUSH = 1e-300

/**
 * Writes one step into to[lo..newHi] from from[lo..hi] and returns the new argmax. Both arrays
 * are zero outside the entries in use, and indices are shifted by the widest step, so a step
 * reads before lo or after hi without a bounds check.
 */
type Convolve = (
  from: Float64Array,
  to: Float64Array,
  lo: number,
  newHi: number,
  peak: number,
) => number

interface Tail {
  logP: number
  logLost: number
}

const logAdd = (a: number, b: number) =>
  a === -Infinity ? b : Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)))

function lowerTailRun(
  spans: readonly number[],
  t: number,
  convolve: (i: number) => Convolve,
  logFloor: number,
): Tail {
  const shift = spans.reduce((a, w) => Math.max(a, w), 1) + 1
  let from = new Float64Array(t + 1 + shift)
  let to = new Float64Array(t + 1 + shift)
  const last = t + shift
  let lo = shift
  let hi = shift
  let peak = shift
  from[shift] = 1
  let logScale = 0
  let logLost = -Infinity
  for (let i = 0; i < spans.length; i++) {
    const newHi = Math.min(last, hi + (spans[i] ?? 0))
    peak = convolve(i)(from, to, lo, newHi, peak)
    from.fill(0, lo, hi + 1)
    const max = to[peak] ?? 0
    if (max < RESCALE_BELOW) {
      const factor = 1 / max
      for (let s = lo; s <= newHi; s++) to[s] = (to[s] ?? 0) * factor
      logScale += Math.log(max)
    }
    const floor = Math.max(FLUSH, Math.exp(logFloor - logScale))
    let lost = 0
    hi = newHi
    for (; lo < peak && (to[lo] ?? 0) < floor; lo++) {
      lost += to[lo] ?? 0
      to[lo] = 0
    }
    for (; hi > peak && (to[hi] ?? 0) < floor; hi--) {
      lost += to[hi] ?? 0
      to[hi] = 0
    }
    if (lost > 0) logLost = logAdd(logLost, Math.log(lost) + logScale)
    ;[from, to] = [to, from]
  }
  let sum = 0
  for (let s = lo; s <= hi; s++) sum += from[s] ?? 0
  return { logP: Math.log(sum) + logScale, logLost }
}

/** Steps alike, grouped: `weights[j]` is the probability that one of them adds j. */
interface StepGroup {
  count: number
  weights: readonly number[]
}

/**
 * Chernoff's bound on the lower tail, log P(Y ≤ t) ≤ K(θ) − θt for any θ ≤ 0 (K the cumulant
 * generating function of Y), at the θ where K′(θ) = t; and beside it the saddle-point estimate
 * for a lattice (Bahadur–Rao: the bound less log((1 − e^θ)·sqrt(K″(θ))·√(2π))), within a few per
 * cent of the tail, which sets the dynamic programme's floor.
 */
function chernoff(groups: readonly StepGroup[], t: number): { bound: number; estimate: number } {
  const cumulants = (theta: number) => {
    let k = 0
    let k1 = 0
    let k2 = 0
    for (const { count, weights } of groups) {
      let m = 0
      let m1 = 0
      let m2 = 0
      weights.forEach((w, j) => {
        const e = w * Math.exp(theta * j)
        m += e
        m1 += j * e
        m2 += j * j * e
      })
      const mean = m1 / m
      k += count * Math.log(m)
      k1 += count * mean
      k2 += count * (m2 / m - mean * mean)
    }
    return { k, k1, k2 }
  }
  // K′ grows with θ; K′(0) is the mean. Below θ = −50 the bound no longer moves.
  let low = -50
  let high = 0
  if (cumulants(0).k1 <= t) return { bound: 0, estimate: 0 }
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2
    if (cumulants(middle).k1 > t) high = middle
    else low = middle
  }
  const { k, k2 } = cumulants(low)
  const bound = Math.min(0, k - low * t)
  const lattice = Math.log(-Math.expm1(low) * Math.sqrt(k2 * 2 * Math.PI))
  return { bound, estimate: Math.min(bound, bound - lattice) }
}

/** log P(Y ≤ t) for Y a sum of independent steps, step i adding 0..spans[i]. */
function logLowerTail(
  spans: readonly number[],
  t: number,
  convolve: (i: number) => Convolve,
  groups: readonly StepGroup[],
): number {
  if (t < 0) return -Infinity
  const { bound, estimate } = chernoff(groups, t)
  // Below the smallest double whatever the programme would find: it is reported as that.
  if (bound < Math.log(Number.MIN_VALUE)) return bound
  const first = lowerTailRun(spans, t, convolve, estimate - Math.log(1e12 * spans.length))
  if (first.logLost <= first.logP + Math.log(1e-9)) return first.logP
  const margin = Math.log(1e12 * spans.length * (t + 1))
  return lowerTailRun(spans, t, convolve, first.logP - margin).logP
}

/** How many of each value `values` holds. */
function tallied<T>(values: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return counts
}

/**
 * One session's rank, uniform on 0..N−1 (shifted), by a running window sum: O(range), not
 * O(range·N). Sums of uniforms are log-concave, hence unimodal, so the window runs left to right
 * up to the peak and right to left down from the far end; either way it adds the larger term and
 * removes the smaller, and no digits cancel in the tails.
 */
const uniformStep =
  (candidates: number): Convolve =>
  (from, to, lo, newHi, peak) => {
    const share = 1 / candidates
    const rising = Math.min(newHi, peak + candidates - 1)
    let top = lo
    let topValue = 0
    let window = 0
    for (let s = lo; s <= rising; s++) {
      window += (from[s] ?? 0) - (from[s - candidates] ?? 0)
      const value = window > 0 ? window * share : 0
      to[s] = value
      if (value > topValue) {
        top = s
        topValue = value
      }
    }
    if (rising === newHi) return top
    window = 0
    for (let j = newHi - candidates + 1; j <= newHi; j++) window += from[j] ?? 0
    for (let s = newHi; s > rising; s--) {
      const value = window > 0 ? window * share : 0
      to[s] = value
      if (value > topValue) {
        top = s
        topValue = value
      }
      window += (from[s - candidates] ?? 0) - (from[s] ?? 0)
    }
    return top
  }

/** One trial adding 1 with probability q. */
const bernoulliStep =
  (q: number): Convolve =>
  (from, to, lo, newHi) => {
    let top = lo
    let topValue = 0
    for (let s = lo; s <= newHi; s++) {
      const value = (from[s] ?? 0) * (1 - q) + (from[s - 1] ?? 0) * q
      to[s] = value
      if (value > topValue) {
        top = s
        topValue = value
      }
    }
    return top
  }

/**
 * Exact P(S ≤ observed) for S a sum of independent discrete uniforms on 1..N_i. The distribution
 * is symmetric about Σ (N_i+1)/2, so above the middle it is 1 − P(S ≤ Σ (N_i+1) − observed − 1),
 * which keeps the array at most half the range. Returns Number.MIN_VALUE for a positive
 * probability below the smallest double.
 */
export function sumOfRanksP(candidateCounts: readonly number[], observedSum: number): number {
  const n = candidateCounts.length
  const observed = Math.floor(observedSum)
  const max = candidateCounts.reduce((a, c) => a + c, 0)
  if (observed < n) return 0
  if (observed >= max) return 1
  const spans = candidateCounts.map((c) => c - 1)
  const steps = (i: number) => uniformStep(candidateCounts[i] ?? 1)
  const groups = [...tallied(candidateCounts)].map(([c, count]) => ({
    count,
    weights: new Array<number>(c).fill(1 / c),
  }))
  const mirrored = max + n - observed - 1
  if (mirrored < observed) return 1 - Math.exp(logLowerTail(spans, mirrored - n, steps, groups))
  return fromLog(logLowerTail(spans, observed - n, steps, groups))
}

/** Exact P(X ≥ k) for X the number of successes of independent trials with probabilities `p`. */
function atLeastP(k: number, p: readonly number[]): number {
  if (k <= 0) return 1
  if (k > p.length) return 0
  const spans = p.map(() => 1)
  const chances = [...tallied(p)]
  // The smaller tail is computed directly: failures ≤ n − k, or 1 − P(successes ≤ k − 1).
  if (k - 1 < p.reduce((a, b) => a + b, 0)) {
    const successes = chances.map(([q, count]) => ({ count, weights: [1 - q, q] }))
    const logP = logLowerTail(spans, k - 1, (i) => bernoulliStep(p[i] ?? 0), successes)
    return 1 - Math.exp(logP)
  }
  const failures = chances.map(([q, count]) => ({ count, weights: [q, 1 - q] }))
  const logP = logLowerTail(spans, p.length - k, (i) => bernoulliStep(1 - (p[i] ?? 0)), failures)
  return fromLog(logP)
}

// erfc by Chebyshev fit (Numerical Recipes 3rd ed., §6.2.2: erfccheb), relative error ~1e-15,
// kept as a logarithm so that a far tail does not underflow before it is clamped.
const ERFC_CHEBYSHEV = [
  -1.3026537197817094, 0.6419697923564902, 1.9476473204185836e-2, -9.561514786808631e-3,
  -9.46595344482036e-4, 3.66839497852761e-4, 4.2523324806907e-5, -2.0278578112534e-5,
  -1.624290004647e-6, 1.30365583558e-6, 1.5626441722e-8, -8.5238095915e-8, 6.529054439e-9,
  5.059343495e-9, -9.91364156e-10, -2.27365122e-10, 9.6467911e-11, 2.394038e-12, -6.886027e-12,
  8.94487e-13, 3.13092e-13, -1.12708e-13, 3.81e-16, 7.106e-15, -1.523e-15, -9.4e-17, 1.21e-16,
  -2.8e-17,
] as const

function logErfc(x: number): number {
  const t = 2 / (2 + x)
  const ty = 4 * t - 2
  let d = 0
  let dd = 0
  for (let j = ERFC_CHEBYSHEV.length - 1; j > 0; j--) {
    const previous = d
    d = ty * d - dd + (ERFC_CHEBYSHEV[j] ?? 0)
    dd = previous
  }
  return Math.log(t) - x * x + 0.5 * (ERFC_CHEBYSHEV[0] + ty * d) - dd
}

/** Two-sided normal p = erfc(|z|/√2). */
const twoSidedP = (z: number) => Math.min(1, fromLog(logErfc(Math.abs(z) / Math.SQRT2)))

/** The sums one judge's ranks give; a session without a rank from that judge counts at chance. */
function tally(sessions: readonly StatsSession[], judge: 'self' | 'analytic') {
  let sumOfRanks = 0
  let expected = 0
  let variance = 0
  let hits = 0
  let judgedSum = 0
  const judgedCounts: number[] = []
  const chances: number[] = []
  for (const s of sessions) {
    const chanceRank = (s.candidates + 1) / 2
    expected += chanceRank
    chances.push(1 / s.candidates)
    const rank = s.status === 'judged' ? (judge === 'self' ? s.rank : s.analyticRank) : null
    if (rank === null) {
      sumOfRanks += chanceRank
      continue
    }
    sumOfRanks += rank
    judgedSum += rank
    judgedCounts.push(s.candidates)
    variance += (s.candidates ** 2 - 1) / 12
    if (rank === 1) hits += 1
  }
  const z = judgedCounts.length > 0 ? (expected - sumOfRanks) / Math.sqrt(variance) : null
  return { sumOfRanks, expected, z, hits, judgedSum, judgedCounts, chances }
}

export function rankStatistics(
  sessions: StatsSession[],
  judge: 'self' | 'analytic',
): Schemas['PracticeRankStats'] {
  const { sumOfRanks, expected, z, hits, judgedSum, judgedCounts, chances } = tally(sessions, judge)
  return {
    sumOfRanks,
    expectedSumOfRanks: round4(expected),
    z: z === null ? null : round4(z),
    effectSize: z === null ? null : round4(z / Math.sqrt(sessions.length)),
    sumOfRanksP: judgedCounts.length > 0 ? probability(sumOfRanksP(judgedCounts, judgedSum)) : null,
    hits,
    expectedHits: round4(chances.reduce((a, b) => a + b, 0)),
    hitsP: sessions.length > 0 ? probability(atLeastP(hits, chances)) : null,
  }
}

const mean = (values: number[]) =>
  values.length > 0 ? round4(values.reduce((a, b) => a + b, 0) / values.length) : null

type Judged = StatsSession & { rank: number }

function windowZ(sessions: Judged[]): number | null {
  const { z } = tally(sessions, 'self')
  return z === null ? null : round4(z)
}

function windowStatistics(sessions: Judged[]): Schemas['PracticeWindowStats'] {
  return {
    sessions: sessions.length,
    meanRank: mean(sessions.map((s) => s.rank)),
    hits: sessions.filter((s) => s.rank === 1).length,
    z: windowZ(sessions),
  }
}

const standardisedScore = (s: Judged) =>
  ((s.candidates + 1) / 2 - s.rank) / Math.sqrt((s.candidates ** 2 - 1) / 12)

function windowDifference(inside: Judged[], outside: Judged[]) {
  if (inside.length < MIN_PER_WINDOW || outside.length < MIN_PER_WINDOW) return null
  const meanScore = (list: Judged[]) =>
    list.reduce((a, s) => a + standardisedScore(s), 0) / list.length
  const z =
    (meanScore(inside) - meanScore(outside)) / Math.sqrt(1 / inside.length + 1 / outside.length)
  return { z: round4(z), p: probability(twoSidedP(z)) }
}

export function practiceStatistics(
  sessions: StatsSession[],
  categories: readonly string[],
): Omit<Schemas['PracticeStats'], 'sessions' | 'history'> {
  const self = rankStatistics(sessions, 'self')
  // A judged session without a rank cannot come from the routes; it would count at chance above.
  const judged = sessions.filter((s): s is Judged => s.status === 'judged' && s.rank !== null)
  const withLst = judged.filter((s) => s.lockLstHours !== null)
  const inside = withLst.filter((s) => inLstWindow(s.lockLstHours ?? 0))
  const outside = withLst.filter((s) => !inLstWindow(s.lockLstHours ?? 0))
  const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null)
  return {
    judged: sessions.filter((s) => s.status === 'judged').length,
    abandoned: sessions.filter((s) => s.status === 'abandoned').length,
    ...self,
    analytic: rankStatistics(sessions, 'analytic'),
    meanFigureOfMerit: mean(known(judged.map((s) => s.figureOfMerit))),
    meanChanceFigureOfMerit: mean(known(judged.map((s) => s.chanceFigureOfMerit))),
    significanceShown: sessions.length >= SIGNIFICANCE_FROM,
    byCategory: categories.map((category) => {
      let described = 0
      let matched = 0
      for (const s of judged) {
        const c = s.byCategory?.[category]
        if (!c || c.described === 0) continue
        described += 1
        if (c.matched > 0) matched += 1
      }
      return { category, sessions: described, matched }
    }),
    sidereal: {
      windowCentreHours: LST_WINDOW.centreHours,
      windowHalfWidthHours: LST_WINDOW.halfWidthHours,
      minimumPerWindow: MIN_PER_WINDOW,
      inside: windowStatistics(inside),
      outside: windowStatistics(outside),
      unknown: judged.length - withLst.length,
      difference: windowDifference(inside, outside),
    },
  }
}

/** Distance on the 24-hour circle. */
export function hoursApart(a: number, b: number): number {
  const d = Math.abs(a - b) % 24
  return Math.min(d, 24 - d)
}

export function inLstWindow(lstHours: number): boolean {
  return hoursApart(lstHours, LST_WINDOW.centreHours) <= LST_WINDOW.halfWidthHours
}
