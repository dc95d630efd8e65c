// How a session's candidates are drawn, so that given everything a client can know (its whole
// history, the hint, the repository, the image bytes, ids, order and timing) every candidate is
// equally likely to be the target:
//   1. the whole set of N is drawn at the start, before any write-up exists, from ONE
//      eligibility class: active targets of the pool that were never this viewer's target;
//   2. when a hint is shown, every candidate of the set has that same hint; otherwise none is;
//   3. only then is the target picked, uniformly inside the set, and the set's order shuffled.
// Nothing about a candidate (its history with this viewer, its hint, its bytes) then tells it
// apart from the others, because the set was formed without knowing which one would be the
// target. The draw is a parameter of the service so that tests can plant the old, unfair draws
// and see the adversarial judge's simulation catch them.
import { randomInt } from 'node:crypto'
import { sha256Hex, shuffled } from './sealing.ts'

/** An active target of the pool, as the draw sees it. */
export interface DrawableTarget {
  id: string
  frontloading: string | null
  /** Was this target ever this viewer's target (any session, any state)? */
  had: boolean
}

export interface CandidateSet {
  /** The candidates, in the order they will be shown at the lock. */
  candidates: string[]
  targetId: string
  /** The hint shown before the session: common to every candidate, or null. */
  frontloading: string | null
}

export type CandidateDraw = (pool: readonly DrawableTarget[], size: number) => CandidateSet | null

const sample = <T>(items: readonly T[], size: number): T[] => shuffled(items).slice(0, size)

/**
 * The fair draw. A seed target is picked uniformly among the eligible; when its hint class has
 * enough eligible targets the set comes from that class and shows the hint, otherwise from all
 * eligible targets with no hint. Null when fewer than `size` targets are eligible.
 */
export const drawCandidateSet: CandidateDraw = (pool, size) => {
  const eligible = pool.filter((t) => !t.had)
  if (eligible.length < size) return null
  const seed = eligible[randomInt(0, eligible.length)] as DrawableTarget
  const sameHint = seed.frontloading
    ? eligible.filter((t) => t.frontloading === seed.frontloading)
    : []
  const hinted = sameHint.length >= size
  const set = sample(hinted ? sameHint : eligible, size).map((t) => t.id)
  return {
    candidates: set,
    targetId: set[randomInt(0, set.length)] as string,
    frontloading: hinted ? seed.frontloading : null,
  }
}

/** SHA-256 of the candidates' image hashes, sorted and joined with ",", then "|" and the nonce. */
export function candidateCommitmentOf(imageSha256s: readonly string[], nonce: string): string {
  const sorted = imageSha256s.map((h) => h.toLowerCase()).sort()
  return sha256Hex(`${sorted.join(',')}|${nonce}`)
}

/** The analytic judge: candidates ordered by the write-up's figure of merit against each. */
export interface AnalyticJudgement {
  /** The target's place, 1 = best fit; ties are broken at random. */
  rank: number
  /** The mean figure of merit against the decoys: what the write-up scores by chance. */
  chanceFigureOfMerit: number
}

export function analyticJudgement(
  figures: readonly { id: string; figureOfMerit: number }[],
  targetId: string,
): AnalyticJudgement {
  // Shuffled first, then a stable sort: equal figures end up in a random order.
  const order = shuffled(figures).sort((a, b) => b.figureOfMerit - a.figureOfMerit)
  const decoys = figures.filter((f) => f.id !== targetId)
  const mean = decoys.reduce((sum, f) => sum + f.figureOfMerit, 0) / Math.max(1, decoys.length)
  return {
    rank: order.findIndex((f) => f.id === targetId) + 1,
    chanceFigureOfMerit: Math.round(mean * 10_000) / 10_000,
  }
}
