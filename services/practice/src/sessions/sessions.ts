// A practice session's life: start (the candidate set drawn, the target picked inside it, both
// committed), the write-up saved as the viewer writes, the lock (write-up hashed, the committed
// set shown, the analytic judge's rank stored), the judging (rank, reveal, score). Only the
// session's owner reaches it; nothing here names the target or a candidate before the lock.
import { AppError, notFound } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { isPostgresError } from '@crv/kit/db'
import {
  analyticJudgement,
  candidateCommitmentOf,
  drawableCount,
  drawCandidateSet,
  familiarityOf,
} from './candidate-sets.ts'
import type { CandidateDraw } from './candidate-sets.ts'
import { drawableTargets, recordShowing } from './drawable-targets.ts'
import type { KeptPool } from './drawable-targets.ts'
import {
  closeIfOverdue,
  judgeIfLocked,
  lockIfUnchanged,
  insertSession,
  openSessionOf,
  saveWriteUpIfOpen,
  sessionOf,
  startReadsOf,
} from './repository.ts'
import type { Queryable, SessionRow } from './repository.ts'
import { poolBySlug, poolExists, targetsByIds } from '../pools/repository.ts'
import type { TargetRow } from '../pools/repository.ts'
import { describedConcepts, figureOfMeritAgainst, scoreWriteUp } from './scoring.ts'
import type { WriteUp } from './scoring.ts'
import { canonicalJson, commitmentOf, newNonce, newTrn, sha256Hex } from './sealing.ts'
import { STARTER_POOL_SLUG } from '../seed.ts'
import type { Vocabulary } from '../vocabulary.ts'
import { candidatesIn, revealOf } from './views.ts'

/** At most this many drawing points in one write-up (a cap besides the body limit). */
export const MAX_DRAWING_POINTS = 20_000

const sessionLocked = () =>
  new AppError('session_locked', 409, 'This session is locked: its write-up can no longer change.')

const sessionAbandoned = () =>
  new AppError(
    'session_abandoned',
    409,
    'This session was left open too long and is closed as abandoned; it counts at the chance rank.',
  )

export interface StartOptions {
  userId: string
  poolId?: string | undefined
  candidates?: 5 | 10 | undefined
  /** The viewer's position (both or neither), for the sidereal time of the start. */
  latitude?: number | undefined
  longitude?: number | undefined
  /** Local sidereal time in hours at a position, or null when it cannot be had. */
  siderealHours: (latitude: number, longitude: number) => Promise<number | null>
  /** Hours after which an open or unjudged session is closed as abandoned. */
  abandonAfterHours: number
  draw?: CandidateDraw | undefined
}

/** The starter pool's id per database: seeded once, never renamed or removed. */
const starterPools = new WeakMap<Database, string>()

export async function resolvePool(db: Database, poolId: string | undefined): Promise<string> {
  if (poolId) {
    if (!(await poolExists(db, poolId))) throw notFound('Target pool not found')
    return poolId
  }
  const known = starterPools.get(db)
  if (known) return known
  const starter = await poolBySlug(db, STARTER_POOL_SLUG)
  if (!starter) throw new AppError('pool_exhausted', 409, 'No target pool is available yet.')
  starterPools.set(db, starter.id)
  return starter.id
}

const sessionOpen = (sessionId: string) =>
  new AppError(
    'session_open',
    409,
    'You have a session open. Finish it (or leave it to close as abandoned after a day) first.',
    { sessionId },
  )

/** A drawn candidate set with its target and both commitments, ready to be stored or sealed. */
export async function drawnSet(
  db: Database,
  poolId: string,
  userId: string | null,
  size: number,
  draw: CandidateDraw = drawCandidateSet,
) {
  return drawnFrom(await drawableTargets(db, poolId, userId), size, draw)
}

function drawnFrom(pool: KeptPool, size: number, draw: CandidateDraw = drawCandidateSet) {
  if (drawableCount(pool) < size) {
    throw new AppError(
      'pool_too_small',
      409,
      `This pool has fewer than ${size} targets to judge among.`,
    )
  }
  const set = draw(pool, size)
  if (!set) {
    throw new AppError(
      'pool_exhausted',
      409,
      'No candidate set can be drawn from this pool right now. Ask an administrator for more targets.',
    )
  }
  // The pictures' hashes come with the kept list, which moves with every write to a target.
  const places = set.candidates.map((id) => pool.places.get(id) ?? -1)
  const seen = familiarityOf(pool, places)
  const imageSha256s = places.map((place) => pool.imageSha256s[place])
  const targetSha256 = pool.imageSha256s[pool.places.get(set.targetId) ?? -1]
  if (!targetSha256 || imageSha256s.some((h) => !h)) throw new Error('a drawn target vanished')
  const nonce = newNonce()
  return {
    ...set,
    ...seen,
    nonce,
    commitment: commitmentOf(set.targetId, targetSha256, nonce),
    candidateCommitment: candidateCommitmentOf(imageSha256s as string[], nonce),
  }
}

/** Starts the viewer's one open session: the set, the target inside it, both commitments. */
export async function startSession(db: Database, options: StartOptions) {
  const { userId, latitude, longitude } = options
  const position =
    latitude !== undefined && longitude !== undefined ? { latitude, longitude } : null
  // Asked first: it may still be on its way from the astro service while the set is drawn.
  const lstHours = position ? options.siderealHours(position.latitude, position.longitude) : null
  const poolId = options.poolId ?? (await resolvePool(db, undefined))
  // One statement for all a start reads: the open session, the series, the pool, the versions.
  const { openId, series, versions, poolFound } = await startReadsOf(
    db,
    userId,
    poolId,
    options.abandonAfterHours,
  )
  if (!poolFound) throw notFound('Target pool not found')
  if (openId) throw sessionOpen(openId)
  if (series && options.candidates && options.candidates !== series.candidate_count) {
    throw new AppError(
      'series_candidates',
      409,
      `Your declared series judges among ${series.candidate_count} candidates.`,
      { seriesId: series.id },
    )
  }
  const candidateCount = series?.candidate_count ?? options.candidates ?? 5
  // Two starts at once: the one-open-session index keeps one, and the other is told of it.
  for (let attempt = 0; attempt < 5; attempt++) {
    const set =
      attempt === 0
        ? drawnFrom(
            await drawableTargets(db, poolId, userId, versions),
            candidateCount,
            options.draw,
          )
        : await drawnSet(db, poolId, userId, candidateCount, options.draw)
    try {
      return await insertSession(db, {
        userId,
        poolId,
        targetId: set.targetId,
        trn: newTrn(),
        nonce: set.nonce,
        commitment: set.commitment,
        candidateCommitment: set.candidateCommitment,
        candidates: set.candidates,
        candidateCount,
        frontloading: set.frontloading,
        lstHours: await lstHours,
        latitude: position?.latitude ?? null,
        longitude: position?.longitude ?? null,
        seriesId: series?.id ?? null,
        familiarity: set.familiarity,
        lastShownAt: set.lastShownAt,
      })
    } catch (err) {
      if (!isPostgresError(err, '23505')) throw err
      const raced = await openSessionOf(db, userId)
      if (raced) throw sessionOpen(raced.id)
    }
  }
  throw new AppError('practice_busy', 503, 'Could not start a session right now. Please try again.')
}

/**
 * The viewer's session as stored now. A session past the limit is first closed as abandoned
 * (that is kept), then refused.
 */
async function stillYours(
  db: Queryable,
  id: string,
  userId: string,
  abandonAfterHours: number,
  forUpdate = false,
): Promise<SessionRow> {
  const row = await sessionOf(db, id, userId, forUpdate)
  if (!row) throw notFound('Practice session not found')
  if (await closeIfOverdue(db, row, abandonAfterHours)) throw sessionAbandoned()
  return row
}

/** How often a write is tried again when the session changed between its read and its write. */
const WRITE_ATTEMPTS = 3

const practiceBusy = () =>
  new AppError('practice_busy', 503, 'The session changed while it was saved. Please try again.')

export async function ownSession(db: Database, id: string, userId: string): Promise<SessionRow> {
  const row = await sessionOf(db, id, userId)
  // Someone else's session is as unknown as one that does not exist.
  if (!row) throw notFound('Practice session not found')
  return row
}

function countPoints(writeUp: WriteUp): number {
  const drawings = [
    ...(writeUp.stage1?.ideograms ?? []).map((i) => i.drawing),
    writeUp.stage3?.sketch,
  ]
  let points = 0
  for (const drawing of drawings)
    for (const stroke of drawing?.strokes ?? []) points += stroke.length
  return points
}

export async function saveWriteUp(
  db: Database,
  id: string,
  userId: string,
  writeUp: WriteUp,
  revision: number | undefined,
  abandonAfterHours: number,
): Promise<{ revision: number; savedAt: Date }> {
  if (countPoints(writeUp) > MAX_DRAWING_POINTS) {
    throw new AppError(
      'drawing_too_large',
      413,
      `The drawings have more than ${MAX_DRAWING_POINTS} points in all. Clear one and draw it again more simply.`,
    )
  }
  const session = { id, userId, abandonAfterHours }
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const saved = await saveWriteUpIfOpen(db, session, writeUp, revision)
    if (saved) return { revision: saved.revision, savedAt: saved.updated_at }
    // Refused: say why from the session as it is now.
    const row = await stillYours(db, id, userId, abandonAfterHours)
    if (row.locked_at) throw sessionLocked()
    if (revision !== undefined && revision !== row.revision) {
      throw new AppError(
        'stale_write_up',
        409,
        'This write-up was changed on another device. Reload to continue from the newest version.',
        { revision: row.revision },
      )
    }
  }
  throw practiceBusy()
}

/** The write-up's figure of merit against each candidate, and where the target comes. */
export function judgeAnalytically(
  writeUp: WriteUp,
  candidates: TargetRow[],
  targetId: string,
  vocabulary: Vocabulary,
) {
  const described = describedConcepts(writeUp, vocabulary)
  const figures = candidates.map((t) => ({
    id: t.id,
    figureOfMerit: figureOfMeritAgainst(described, t.tags),
  }))
  return analyticJudgement(figures, targetId)
}

export interface LockOptions {
  vocabulary: Vocabulary
  abandonAfterHours: number
  /** The local sidereal time at the session's position now, or null. */
  siderealHours: (latitude: number, longitude: number) => Promise<number | null>
}

/**
 * Locks once: the write-up's hash, the time, the analytic rank and the sidereal time, written
 * only if the write-up is still the one hashed. Locking a locked session answers its lock again.
 */
export async function lockSession(db: Database, id: string, userId: string, options: LockOptions) {
  // First without a transaction (one conditional write; on the embedded database a transaction
  // holds every service's queries). If a save landed between the read and the write, again
  // with the row held, so a lock always ends however often the write-up is saved meanwhile.
  const locked =
    (await tryLock(db, id, userId, options, false)) ??
    (await db.transaction((tx) => tryLock(tx, id, userId, options, true)))
  if (!locked) throw new Error(`session ${id} changed while its row was held`)
  // Committed: the showings the service keeps for the next start move forward with it.
  const { shown } = locked
  if (shown) {
    recordShowing(db, {
      userId: shown.user_id,
      poolId: shown.pool_id,
      candidates: shown.candidates ?? [],
      version: shown.shown_version,
      versionBefore: shown.shown_version_before,
    })
  }
  return locked
}

async function tryLock(
  db: Queryable,
  id: string,
  userId: string,
  options: LockOptions,
  forUpdate: boolean,
) {
  const row = await stillYours(db, id, userId, options.abandonAfterHours, forUpdate)
  if (!row.candidates) throw sessionAbandoned()
  // The sidereal time, asked while the set is read and judged (the astro service may take a
  // moment); a session without a position has none.
  const lst =
    !row.locked_at && row.latitude !== null && row.longitude !== null
      ? options.siderealHours(row.latitude, row.longitude)
      : null
  const targets = await targetsByIds(db, row.candidates)
  if (row.locked_at) return { row, candidates: candidatesIn(row, targets), shown: null }
  const candidates = row.candidates.map((c) => targets.get(c))
  if (candidates.some((c) => !c)) throw new Error(`a candidate of session ${row.id} is missing`)
  const analytic = judgeAnalytically(
    row.write_up as WriteUp,
    candidates as TargetRow[],
    row.target_id,
    options.vocabulary,
  )
  const locked = await lockIfUnchanged(
    db,
    { id, revision: row.revision, abandonAfterHours: options.abandonAfterHours },
    {
      writeUpSha256: sha256Hex(canonicalJson(row.write_up)),
      analyticRank: analytic.rank,
      chanceFigureOfMerit: analytic.chanceFigureOfMerit,
      lstHours: await lst,
    },
  )
  return locked ? { row: locked, candidates: candidatesIn(locked, targets), shown: locked } : null
}

export function checkRanking(ranking: string[], candidates: string[]): void {
  const valid =
    ranking.length === candidates.length &&
    new Set(ranking).size === ranking.length &&
    ranking.every((id) => candidates.includes(id))
  if (!valid) {
    throw new AppError(
      'invalid_ranking',
      400,
      'Rank every candidate exactly once, best match first.',
      { candidates },
    )
  }
}

export async function judgeSession(
  db: Database,
  id: string,
  userId: string,
  ranking: string[],
  options: { vocabulary: Vocabulary; abandonAfterHours: number },
) {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const row = await stillYours(db, id, userId, options.abandonAfterHours)
    if (row.judged_at) throw new AppError('session_judged', 409, 'This session is already judged.')
    if (!row.locked_at || !row.candidates) {
      throw new AppError('session_not_locked', 409, 'Lock the write-up before judging.')
    }
    checkRanking(ranking, row.candidates)
    const candidates = await targetsByIds(db, row.candidates)
    const target = candidates.get(row.target_id)
    if (!target) throw new Error(`target ${row.target_id} of session ${row.id} is missing`)
    const rank = ranking.indexOf(row.target_id) + 1
    const score = scoreWriteUp(row.write_up as WriteUp, target.tags, options.vocabulary)
    const judged = await judgeIfLocked(
      db,
      { id, abandonAfterHours: options.abandonAfterHours },
      { ranking, rank, score },
    )
    if (judged) return revealOf(judged, target, candidates, score)
  }
  throw practiceBusy()
}
