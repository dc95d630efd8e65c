// How a session's candidates are drawn, so that given everything a client can know (its whole
// history, the hint, the repository, the image bytes, ids, order and timing) every candidate is
// equally likely to be the target:
//   1. the whole set of N is drawn at the start, before any write-up exists, from ONE
//      eligibility class of this viewer's history: the pictures never shown to them; else those
//      shown 180 days ago or more (or never); else the ones shown longest ago (issue [24]: a
//      pool that lasts, never exhausted);
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
  /** When it was last shown to this viewer as a candidate (ms since the epoch), or null. */
  lastShownAt: number | null
}

/** Pictures shown this long ago or more are "rested". */
export const REST_DAYS = 180
const REST_MS = REST_DAYS * 24 * 3_600_000

export type Familiarity = 'unseen' | 'rested' | 'recent'

export interface CandidateSet {
  /** The candidates, in the order they will be shown at the lock. */
  candidates: string[]
  targetId: string
  /** The hint shown before the session: common to every candidate, or null. */
  frontloading: string | null
}

export type CandidateDraw = (pool: readonly DrawableTarget[], size: number) => CandidateSet | null

/** `size` of the items, uniformly at random and in random order (a partial Fisher–Yates). */
function sample<T>(items: readonly T[], size: number): T[] {
  const out = [...items]
  const take = Math.min(size, out.length)
  for (let i = 0; i < take; i++) {
    const j = randomInt(i, out.length)
    const a = out[i] as T
    out[i] = out[j] as T
    out[j] = a
  }
  return out.slice(0, take)
}

/**
 * The class a set is drawn from: the pictures never shown to this viewer, if there are enough;
 * else those rested (shown REST_DAYS ago or more, or never); else the ones shown longest ago,
 * about half the pool, pictures shown together (one set) kept together.
 * It depends on the history only, never on which candidate will be the target.
 */
export function eligibleClass(
  pool: readonly DrawableTarget[],
  size: number,
  now = Date.now(),
): readonly DrawableTarget[] {
  const unseen = pool.filter((t) => t.lastShownAt === null)
  if (unseen.length >= size) return unseen
  const rested = pool.filter((t) => t.lastShownAt === null || t.lastShownAt <= now - REST_MS)
  if (rested.length >= size) return rested
  if (pool.length < size) return []
  // Pictures shown at the same moment (one set's) stay together: whole groups, oldest first,
  // up to about half the pool, and always at least one set's worth.
  const byAge = [...pool].sort((a, b) => (a.lastShownAt ?? 0) - (b.lastShownAt ?? 0))
  const take = Math.max(2 * size, Math.ceil(pool.length / 2))
  const chosen: DrawableTarget[] = []
  for (let i = 0; i < byAge.length;) {
    const at = byAge[i]?.lastShownAt ?? 0
    let end = i
    while (end < byAge.length && (byAge[end]?.lastShownAt ?? 0) === at) end += 1
    if (chosen.length >= size && chosen.length + (end - i) > take) break
    chosen.push(...byAge.slice(i, end))
    i = end
  }
  return chosen
}

/** What a set's pictures are to its viewer: its class, and their latest earlier showing. */
export function familiarityOf(
  set: readonly DrawableTarget[],
  now = Date.now(),
): { familiarity: Familiarity; lastShownAt: number | null } {
  const shown = set.flatMap((t) => (t.lastShownAt === null ? [] : [t.lastShownAt]))
  if (shown.length === 0) return { familiarity: 'unseen', lastShownAt: null }
  const lastShownAt = Math.max(...shown)
  return { familiarity: lastShownAt <= now - REST_MS ? 'rested' : 'recent', lastShownAt }
}

/**
 * The fair draw. A seed target is picked uniformly in the eligible class; when its hint class
 * has enough targets there, the set comes from that hint class and shows the hint, otherwise
 * from the whole eligible class with no hint. Null only when the pool has fewer than `size`.
 */
export const drawCandidateSet: CandidateDraw = (pool, size) => {
  const eligible = eligibleClass(pool, size)
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
