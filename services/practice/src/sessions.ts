// A practice session's life: start (the candidate set drawn, the target picked inside it, both
// committed), the write-up saved as the viewer writes, the lock (write-up hashed, the committed
// set shown, the analytic judge's rank stored), the judging (rank, reveal, score). Only the
// session's owner reaches it; nothing here names the target or a candidate before the lock.
import type { components } from '@crv/contracts'
import { AppError, notFound } from '@crv/kit'
import type { Pool } from '@crv/kit/db'
import type { PoolClient } from 'pg'
import { isPostgresError } from '@crv/kit/db'
import { analyticJudgement, candidateCommitmentOf, drawCandidateSet } from './candidate-sets.ts'
import type { CandidateDraw } from './candidate-sets.ts'
import {
  closeIfOverdue,
  closeOverdueAndFindOpen,
  drawableTargets,
  openSessionOf,
  poolBySlug,
  poolExists,
  seriesTakingSessions,
  sessionOf,
  targetsByIds,
  withTransaction,
} from './repository.ts'
import type { SessionRow, TargetRow } from './repository.ts'
import { describedConcepts, figureOfMeritAgainst, scoreWriteUp } from './scoring.ts'
import type { Score, WriteUp } from './scoring.ts'
import { canonicalJson, commitmentOf, newNonce, newTrn, sha256Hex } from './sealing.ts'
import { STARTER_POOL_SLUG } from './seed.ts'
import type { Vocabulary } from './vocabulary.ts'

type Schemas = components['schemas']

/** At most this many drawing points in one write-up (a cap besides the body limit). */
export const MAX_DRAWING_POINTS = 20_000

export const imageUrlOf = (imageKey: string) => `/api/practice/images/${imageKey}`

const sessionLocked = () =>
  new AppError('session_locked', 409, 'This session is locked: its write-up can no longer change.')

const sessionAbandoned = () =>
  new AppError(
    'session_abandoned',
    409,
    'This session was left open too long and is closed as abandoned; it counts at the chance rank.',
  )

export function candidateOf(target: TargetRow): Schemas['PracticeCandidate'] {
  return {
    id: target.id,
    imageUrl: imageUrlOf(target.image_key),
    imageSha256: target.image_sha256,
    tags: target.tags,
  }
}

export interface StartOptions {
  userId: string
  poolId?: string | undefined
  candidates?: 5 | 10 | undefined
  /** May still be on its way from the astro service while the set is drawn. */
  lstHours: number | null | Promise<number | null>
  latitude?: number | undefined
  longitude?: number | undefined
  /** Hours after which an open or unjudged session is closed as abandoned. */
  abandonAfterHours: number
  draw?: CandidateDraw | undefined
}

/** The starter pool's id per database: seeded once, never renamed or removed. */
const starterPools = new WeakMap<Pool, string>()

export async function resolvePool(db: Pool, poolId: string | undefined): Promise<string> {
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
  db: Pool,
  poolId: string,
  userId: string | null,
  size: number,
  draw: CandidateDraw = drawCandidateSet,
) {
  const pool = await drawableTargets(db, poolId, userId)
  if (pool.length < size) {
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
      'You have practised on nearly every target of this pool. Ask an administrator for more targets.',
    )
  }
  const hashes = new Map(pool.map((t) => [t.id, t.image_sha256]))
  const imageSha256s = set.candidates.map((id) => hashes.get(id))
  const targetSha256 = hashes.get(set.targetId)
  if (!targetSha256 || imageSha256s.some((h) => !h)) throw new Error('a drawn target vanished')
  const nonce = newNonce()
  return {
    ...set,
    nonce,
    commitment: commitmentOf(set.targetId, targetSha256, nonce),
    candidateCommitment: candidateCommitmentOf(imageSha256s as string[], nonce),
  }
}

/** Starts the viewer's one open session: the set, the target inside it, both commitments. */
export async function startSession(db: Pool, options: StartOptions) {
  const { userId } = options
  const open = await closeOverdueAndFindOpen(db, userId, options.abandonAfterHours)
  if (open) throw sessionOpen(open.id)
  const poolId = await resolvePool(db, options.poolId)
  const series = await seriesTakingSessions(db, userId)
  if (series && options.candidates && options.candidates !== series.candidate_count) {
    throw new AppError(
      'series_candidates',
      409,
      `Your declared series judges among ${series.candidate_count} candidates.`,
      { seriesId: series.id },
    )
  }
  const candidateCount = series?.candidate_count ?? options.candidates ?? 5
  // Two starts at once: the one-open-session index keeps one; a race on a target redraws.
  for (let attempt = 0; attempt < 5; attempt++) {
    const set = await drawnSet(db, poolId, userId, candidateCount, options.draw)
    try {
      const { rows } = await db.query<SessionRow>(
        `INSERT INTO practice.sessions
           (user_id, pool_id, target_id, trn, nonce, commitment, candidate_commitment, candidates,
            candidate_count, frontloading, lst_hours, latitude, longitude, series_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[], $9, $10, $11, $12, $13, $14) RETURNING *`,
        [
          userId,
          poolId,
          set.targetId,
          newTrn(),
          set.nonce,
          set.commitment,
          set.candidateCommitment,
          set.candidates,
          candidateCount,
          set.frontloading,
          await options.lstHours,
          options.latitude ?? null,
          options.longitude ?? null,
          series?.id ?? null,
        ],
      )
      const row = rows[0]
      if (!row) throw new Error('session insert returned nothing')
      return row
    } catch (err) {
      if (!isPostgresError(err, '23505')) throw err
      const raced = await openSessionOf(db, userId)
      if (raced) throw sessionOpen(raced.id)
    }
  }
  throw new AppError('practice_busy', 503, 'Could not start a session right now. Please try again.')
}

/**
 * Runs `work` on the viewer's session, its row locked. A session past the limit is first closed
 * as abandoned (that is kept), then refused.
 */
async function withOwnSession<T>(
  db: Pool,
  id: string,
  userId: string,
  abandonAfterHours: number,
  work: (client: PoolClient, row: SessionRow) => Promise<T>,
): Promise<T> {
  const outcome = await withTransaction(db, async (client) => {
    const row = await sessionOf(client, id, userId, true)
    if (!row) throw notFound('Practice session not found')
    if (await closeIfOverdue(client, row, abandonAfterHours)) return { abandoned: true } as const
    return { abandoned: false, value: await work(client, row) } as const
  })
  if (outcome.abandoned) throw sessionAbandoned()
  return outcome.value
}

export async function ownSession(db: Pool, id: string, userId: string): Promise<SessionRow> {
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
  db: Pool,
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
  return withOwnSession(db, id, userId, abandonAfterHours, async (client, row) => {
    if (row.locked_at) throw sessionLocked()
    if (revision !== undefined && revision !== row.revision) {
      throw new AppError(
        'stale_write_up',
        409,
        'This write-up was changed on another device. Reload to continue from the newest version.',
        { revision: row.revision },
      )
    }
    const { rows } = await client.query<{ revision: number; updated_at: Date }>(
      `UPDATE practice.sessions SET write_up = $2, revision = revision + 1, updated_at = now()
       WHERE id = $1 RETURNING revision, updated_at`,
      [id, JSON.stringify(writeUp)],
    )
    const saved = rows[0]
    if (!saved) throw notFound('Practice session not found')
    return { revision: saved.revision, savedAt: saved.updated_at }
  })
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

/** Locks once: the write-up's hash, the time, then the committed set and the analytic rank. */
export async function lockSession(db: Pool, id: string, userId: string, options: LockOptions) {
  const { row, targets, lst } = await withOwnSession(
    db,
    id,
    userId,
    options.abandonAfterHours,
    async (client, row) => {
      if (!row.candidates) throw sessionAbandoned()
      const targets = await targetsByIds(client, row.candidates)
      if (row.locked_at) return { row, targets, lst: null }
      // The sidereal time now, asked while the lock is written (the astro service may take a
      // moment); a session without a position has none.
      const lst =
        row.latitude !== null && row.longitude !== null
          ? options.siderealHours(row.latitude, row.longitude)
          : null
      const candidates = row.candidates.map((c) => targets.get(c))
      if (candidates.some((c) => !c)) throw new Error(`a candidate of session ${row.id} is missing`)
      const analytic = judgeAnalytically(
        row.write_up as WriteUp,
        candidates as TargetRow[],
        row.target_id,
        options.vocabulary,
      )
      const { rows } = await client.query<SessionRow>(
        `UPDATE practice.sessions SET locked_at = now(), write_up_sha256 = $2,
           analytic_rank = $3, chance_figure_of_merit = $4
         WHERE id = $1 RETURNING *`,
        [id, sha256Hex(canonicalJson(row.write_up)), analytic.rank, analytic.chanceFigureOfMerit],
      )
      return { row: rows[0] as SessionRow, targets, lst }
    },
  )
  if (lst) {
    row.lock_lst_hours = await lst
    if (row.lock_lst_hours !== null) {
      await db.query('UPDATE practice.sessions SET lock_lst_hours = $2 WHERE id = $1', [
        id,
        row.lock_lst_hours,
      ])
    }
  }
  return { row, candidates: candidatesIn(row, targets) }
}

/** The session's candidates in the order shown (none before the lock). */
export function candidatesIn(
  row: SessionRow,
  targets: Map<string, TargetRow>,
): Schemas['PracticeCandidate'][] {
  if (!row.locked_at) return []
  return (row.candidates ?? []).flatMap((id) => {
    const t = targets.get(id)
    return t ? [candidateOf(t)] : []
  })
}

export function revealOf(
  row: SessionRow,
  target: TargetRow,
  candidates: Map<string, TargetRow>,
  score: Score,
) {
  const hashes = (row.candidates ?? []).flatMap((id) => {
    const hash = candidates.get(id)?.image_sha256
    return hash ? [hash] : []
  })
  return {
    targetId: target.id,
    imageSha256: target.image_sha256,
    nonce: row.nonce,
    commitment: row.commitment,
    // Sessions locked before sets were committed: the check is made on the set shown.
    candidateCommitment: row.candidate_commitment ?? candidateCommitmentOf(hashes, row.nonce),
    candidateImageSha256: [...hashes].sort(),
    rank: row.rank ?? 0,
    analyticRank: row.analytic_rank ?? Math.ceil(row.candidate_count / 2),
    chanceFigureOfMerit: row.chance_figure_of_merit ?? 0,
    candidates: row.candidate_count as 5 | 10,
    imageUrl: imageUrlOf(target.image_key),
    title: target.title,
    feedback: target.feedback,
    tags: target.tags,
    licence: target.licence,
    source: target.source,
    attribution: target.attribution,
    writeUpSha256: row.write_up_sha256 ?? '',
    score,
  } satisfies Schemas['PracticeReveal']
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
  db: Pool,
  id: string,
  userId: string,
  ranking: string[],
  options: { vocabulary: Vocabulary; abandonAfterHours: number },
) {
  return withOwnSession(db, id, userId, options.abandonAfterHours, async (client, row) => {
    if (row.judged_at) throw new AppError('session_judged', 409, 'This session is already judged.')
    if (!row.locked_at || !row.candidates) {
      throw new AppError('session_not_locked', 409, 'Lock the write-up before judging.')
    }
    checkRanking(ranking, row.candidates)
    const candidates = await targetsByIds(client, row.candidates)
    const target = candidates.get(row.target_id)
    if (!target) throw new Error(`target ${row.target_id} of session ${row.id} is missing`)
    const rank = ranking.indexOf(row.target_id) + 1
    const score = scoreWriteUp(row.write_up as WriteUp, target.tags, options.vocabulary)
    const { rows } = await client.query<SessionRow>(
      `UPDATE practice.sessions SET judged_at = now(), ranking = $2::uuid[], rank = $3, score = $4
       WHERE id = $1 RETURNING *`,
      [id, ranking, rank, JSON.stringify(score)],
    )
    const judged = rows[0] as SessionRow
    return revealOf(judged, target, candidates, score)
  })
}
