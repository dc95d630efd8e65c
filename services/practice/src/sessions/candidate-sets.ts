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

/** An active target of the pool, one at a time (tests and planted draws build pools of these). */
export interface DrawableTarget {
  id: string
  frontloading: string | null
  /** When it was last shown to this viewer as a candidate (ms since the epoch), or null. */
  lastShownAt: number | null
}

/**
 * A pool's active targets as the draw sees them, column by column. A start meets a pool of
 * thousands of targets: an object per target per start (5,000) was most of what a start
 * allocated, and under the services' --optimize-for-size it brought a full collection every
 * ~30 starts (12-97 ms each, the start's p99). The columns are kept between starts; a draw reads
 * them and allocates two arrays of places.
 */
export interface DrawablePool {
  readonly ids: readonly string[]
  /** Each target's hint, or null. */
  readonly hints: readonly (string | null)[]
  /** When each was last shown to this viewer as a candidate (ms since the epoch); NaN: never. */
  readonly shownAt: Float64Array
  /** Each target's place in the columns, by id. */
  readonly places: ReadonlyMap<string, number>
  /** The places a set may come from (a contributor's own targets are left out); null: all. */
  readonly drawable: Int32Array | null
}

/** A pool of these targets, all drawable (for tests and tools). */
export function poolOf(targets: readonly DrawableTarget[]): DrawablePool {
  return {
    ids: targets.map((t) => t.id),
    hints: targets.map((t) => t.frontloading),
    shownAt: Float64Array.from(targets, (t) => t.lastShownAt ?? Number.NaN),
    places: new Map(targets.map((t, i) => [t.id, i])),
    drawable: null,
  }
}

/** The pool's drawable targets, one object each (for planted draws in tests). */
export function targetsOf(pool: DrawablePool, places: ArrayLike<number> = drawablePlaces(pool)) {
  return Array.from(places, (i): DrawableTarget => {
    const ms = pool.shownAt[i] ?? Number.NaN
    return {
      id: pool.ids[i] as string,
      frontloading: pool.hints[i] ?? null,
      lastShownAt: Number.isNaN(ms) ? null : ms,
    }
  })
}

/** How many targets a set may be drawn from. */
export const drawableCount = (pool: DrawablePool): number =>
  pool.drawable ? pool.drawable.length : pool.ids.length

function drawablePlaces(pool: DrawablePool): Int32Array {
  return pool.drawable ?? Int32Array.from(pool.ids, (_, i) => i)
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

export type CandidateDraw = (pool: DrawablePool, size: number) => CandidateSet | null

/** The places of the drawable targets that pass `keep`, in pool order. */
function placesWhere(pool: DrawablePool, keep: (shownAt: number) => boolean): Int32Array {
  const out = new Int32Array(drawableCount(pool))
  let n = 0
  if (pool.drawable) {
    for (const i of pool.drawable) if (keep(pool.shownAt[i] as number)) out[n++] = i
  } else {
    for (let i = 0; i < pool.ids.length; i++) if (keep(pool.shownAt[i] as number)) out[n++] = i
  }
  return out.subarray(0, n)
}

/**
 * The class a set is drawn from, as places in the pool: the pictures never shown to this viewer,
 * if there are enough; else those rested (shown REST_DAYS ago or more, or never); else the ones
 * shown longest ago, about half the pool, pictures shown together (one set) kept together.
 * It depends on the history only, never on which candidate will be the target.
 */
export function eligibleClass(pool: DrawablePool, size: number, now = Date.now()): Int32Array {
  const unseen = placesWhere(pool, Number.isNaN)
  if (unseen.length >= size) return unseen
  const restedBefore = now - REST_MS
  const rested = placesWhere(pool, (at) => Number.isNaN(at) || at <= restedBefore)
  if (rested.length >= size) return rested
  const count = drawableCount(pool)
  if (count < size) return new Int32Array(0)
  // Pictures shown at the same moment (one set's) stay together: whole groups, oldest first,
  // up to about half the pool, and always at least one set's worth.
  const age = (i: number) => {
    const at = pool.shownAt[i] as number
    return Number.isNaN(at) ? 0 : at
  }
  const byAge = drawablePlaces(pool)
    .slice()
    .sort((a, b) => age(a) - age(b))
  const take = Math.max(2 * size, Math.ceil(count / 2))
  let chosen = 0
  for (let i = 0; i < byAge.length;) {
    const at = age(byAge[i] as number)
    let end = i
    while (end < byAge.length && age(byAge[end] as number) === at) end += 1
    if (chosen >= size && end > take) break
    chosen = end
    i = end
  }
  return byAge.subarray(0, chosen)
}

/** What a set's pictures are to its viewer: its class, and their latest earlier showing. */
export function familiarityOf(
  pool: DrawablePool,
  places: ArrayLike<number>,
  now = Date.now(),
): { familiarity: Familiarity; lastShownAt: number | null } {
  let lastShownAt = Number.NaN
  for (let k = 0; k < places.length; k++) {
    const at = pool.shownAt[places[k] as number] ?? Number.NaN
    if (!Number.isNaN(at) && (Number.isNaN(lastShownAt) || at > lastShownAt)) lastShownAt = at
  }
  if (Number.isNaN(lastShownAt)) return { familiarity: 'unseen', lastShownAt: null }
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
  const hint = pool.hints[eligible[randomInt(0, eligible.length)] as number] ?? null
  let from = eligible
  if (hint) {
    const sameHint = new Int32Array(eligible.length)
    let n = 0
    for (const i of eligible) if (pool.hints[i] === hint) sameHint[n++] = i
    if (n >= size) from = sameHint.subarray(0, n)
  }
  const hinted = from !== eligible
  // `size` places uniformly at random and in random order: a partial Fisher–Yates (`from` is
  // this draw's own array).
  const candidates: string[] = []
  for (let k = 0; k < size; k++) {
    const j = randomInt(k, from.length)
    const picked = from[j] as number
    from[j] = from[k] as number
    from[k] = picked
    candidates.push(pool.ids[picked] as string)
  }
  return {
    candidates,
    targetId: candidates[randomInt(0, candidates.length)] as string,
    frontloading: hinted ? hint : null,
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
