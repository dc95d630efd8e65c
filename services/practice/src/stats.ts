// Statistics over a viewer's judged sessions. Sum of ranks: under chance a target's rank among N
// candidates is uniform on 1..N, mean (N+1)/2 and variance (N²−1)/12, so over sessions with N_i
// candidates z = (Σ(N_i+1)/2 − S) / sqrt(Σ(N_i²−1)/12); positive is better than chance. First
// places: each a Bernoulli trial with p = 1/N_i; the exact probability of k or more is the
// Poisson-binomial tail (the binomial one when every N is equal).

export interface JudgedSession {
  candidates: number
  rank: number
  lstHours: number | null
}

export interface RankStatistics {
  sessions: number
  sumOfRanks: number
  expectedSumOfRanks: number
  z: number | null
  effectSize: number | null
  hits: number
  expectedHits: number
  hitsP: number | null
  meanRank: number | null
}

/** Spottiswoode (1997): effect sizes were larger within an hour of 13.5 h local sidereal time. */
export const LST_WINDOW = { centreHours: 13.5, halfWidthHours: 1 } as const

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits

/** P(X ≥ k) for X the number of successes of independent trials with probabilities `p`. */
export function atLeast(k: number, p: number[]): number {
  // dist[j] = P(j successes so far)
  let dist = [1]
  for (const pi of p) {
    const next = new Array<number>(dist.length + 1).fill(0)
    dist.forEach((q, j) => {
      next[j] = (next[j] ?? 0) + q * (1 - pi)
      next[j + 1] = (next[j + 1] ?? 0) + q * pi
    })
    dist = next
  }
  return Math.min(
    1,
    dist.slice(Math.max(0, k)).reduce((a, b) => a + b, 0),
  )
}

export function rankStatistics(sessions: JudgedSession[]): RankStatistics {
  const n = sessions.length
  const sumOfRanks = sessions.reduce((a, s) => a + s.rank, 0)
  const expected = sessions.reduce((a, s) => a + (s.candidates + 1) / 2, 0)
  const variance = sessions.reduce((a, s) => a + (s.candidates ** 2 - 1) / 12, 0)
  const z = n > 0 && variance > 0 ? (expected - sumOfRanks) / Math.sqrt(variance) : null
  const hits = sessions.filter((s) => s.rank === 1).length
  const chances = sessions.map((s) => 1 / s.candidates)
  return {
    sessions: n,
    sumOfRanks,
    expectedSumOfRanks: round(expected),
    z: z === null ? null : round(z),
    effectSize: z === null ? null : round(z / Math.sqrt(n)),
    hits,
    expectedHits: round(chances.reduce((a, b) => a + b, 0)),
    hitsP: n > 0 ? round(atLeast(hits, chances), 6) : null,
    meanRank: n > 0 ? round(sumOfRanks / n) : null,
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
