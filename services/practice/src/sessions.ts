// A practice session's life: start (a sealed target and its commitment), the write-up saved as
// the viewer writes, the lock (write-up hashed, then candidates drawn), the judging (rank, reveal,
// score). Only the session's owner reaches it; nothing here names the target before the lock.
import { randomInt } from 'node:crypto'
import type { components } from '@crv/contracts'
import { AppError, notFound } from '@crv/kit'
import type { Pool } from '@crv/kit/db'
import {
  activeTargetIds,
  poolBySlug,
  poolExists,
  sessionOf,
  targetById,
  targetsByIds,
  withTransaction,
} from './repository.ts'
import type { SessionRow, TargetRow } from './repository.ts'
import { scoreWriteUp } from './scoring.ts'
import type { WriteUp } from './scoring.ts'
import { canonicalJson, commitmentOf, newNonce, newTrn, sha256Hex, shuffled } from './sealing.ts'
import { STARTER_POOL_SLUG } from './seed.ts'
import type { Vocabulary } from './vocabulary.ts'

type Schemas = components['schemas']

/** At most this many drawing points in one write-up (a cap besides the body limit). */
export const MAX_DRAWING_POINTS = 20_000

export const imageUrlOf = (imageKey: string) => `/api/practice/images/${imageKey}`

const sessionLocked = () =>
  new AppError('session_locked', 409, 'This session is locked: its write-up can no longer change.')

export function candidateOf(target: TargetRow): Schemas['PracticeCandidate'] {
  return { id: target.id, imageUrl: imageUrlOf(target.image_key), tags: target.tags }
}

export interface StartOptions {
  userId: string
  poolId?: string | undefined
  candidates?: 5 | 10 | undefined
  /** May still be on its way from the astro service while the target is drawn. */
  lstHours: number | null | Promise<number | null>
  latitude?: number | undefined
  longitude?: number | undefined
}

export async function resolvePool(db: Pool, poolId: string | undefined): Promise<string> {
  if (poolId) {
    if (!(await poolExists(db, poolId))) throw notFound('Target pool not found')
    return poolId
  }
  const starter = await poolBySlug(db, STARTER_POOL_SLUG)
  if (!starter) throw new AppError('pool_exhausted', 409, 'No target pool is available yet.')
  return starter.id
}

/** A random target the user never had, its reference number and the published commitment. */
export async function startSession(db: Pool, options: StartOptions) {
  const poolId = await resolvePool(db, options.poolId)
  const candidateCount = options.candidates ?? 5
  // Two starts at once may draw the same target; the unique index keeps one, the other redraws.
  for (let attempt = 0; attempt < 5; attempt++) {
    // One round trip: the pool's active targets, and which of them the user already had.
    const { rows: pool } = await db.query<{
      id: string
      image_sha256: string
      frontloading: string | null
      had: boolean
    }>(
      `SELECT t.id, t.image_sha256, t.frontloading,
              EXISTS (SELECT 1 FROM practice.sessions s WHERE s.user_id = $2 AND s.target_id = t.id) AS had
       FROM practice.targets t
       WHERE t.pool_id = $1 AND t.retired_at IS NULL AND t.deleted_at IS NULL`,
      [poolId, options.userId],
    )
    if (pool.length < candidateCount) {
      throw new AppError(
        'pool_too_small',
        409,
        `This pool has fewer than ${candidateCount} targets to judge among.`,
      )
    }
    const fresh = pool.filter((t) => !t.had)
    if (fresh.length === 0) {
      throw new AppError(
        'pool_exhausted',
        409,
        'You have practised on every target of this pool. Ask an administrator for more targets.',
      )
    }
    const target = fresh[randomInt(0, fresh.length)]
    if (!target) continue
    const nonce = newNonce()
    const trn = newTrn()
    const commitment = commitmentOf(target.id, target.image_sha256, nonce)
    try {
      const { rows } = await db.query<SessionRow>(
        `INSERT INTO practice.sessions
           (user_id, pool_id, target_id, trn, nonce, commitment, candidate_count, frontloading, lst_hours, latitude, longitude)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
        [
          options.userId,
          poolId,
          target.id,
          trn,
          nonce,
          commitment,
          candidateCount,
          target.frontloading,
          await options.lstHours,
          options.latitude ?? null,
          options.longitude ?? null,
        ],
      )
      const row = rows[0]
      if (!row) throw new Error('session insert returned nothing')
      return row
    } catch (err) {
      if ((err as { code?: string }).code === '23505') continue
      throw err
    }
  }
  throw new AppError('practice_busy', 503, 'Could not start a session right now. Please try again.')
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
): Promise<{ revision: number; savedAt: Date }> {
  if (countPoints(writeUp) > MAX_DRAWING_POINTS) {
    throw new AppError(
      'drawing_too_large',
      413,
      `The drawings have more than ${MAX_DRAWING_POINTS} points in all. Clear one and draw it again more simply.`,
    )
  }
  return withTransaction(db, async (client) => {
    const row = await sessionOf(client, id, userId, true)
    if (!row) throw notFound('Practice session not found')
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

/** Locks once: the write-up's hash, then the candidates (target and decoys, shuffled). */
export async function lockSession(db: Pool, id: string, userId: string) {
  const locked = await withTransaction(db, async (client) => {
    const row = await sessionOf(client, id, userId, true)
    if (!row) throw notFound('Practice session not found')
    if (row.locked_at && row.candidates) return row
    const decoys = shuffled(
      (await activeTargetIds(client, row.pool_id)).filter((t) => t !== row.target_id),
    ).slice(0, row.candidate_count - 1)
    if (decoys.length < row.candidate_count - 1) {
      throw new AppError(
        'pool_too_small',
        409,
        'This pool no longer has enough targets to judge among.',
      )
    }
    const candidates = shuffled([row.target_id, ...decoys])
    const hash = sha256Hex(canonicalJson(row.write_up))
    const { rows } = await client.query<SessionRow>(
      `UPDATE practice.sessions SET locked_at = now(), write_up_sha256 = $2, candidates = $3::uuid[]
       WHERE id = $1 RETURNING *`,
      [id, hash, candidates],
    )
    return rows[0] as SessionRow
  })
  return { row: locked, candidates: await candidatesOf(db, locked) }
}

export async function candidatesOf(
  db: Pool,
  row: SessionRow,
): Promise<Schemas['PracticeCandidate'][]> {
  const ids = row.candidates ?? []
  const targets = await targetsByIds(db, ids)
  return ids.flatMap((id) => {
    const t = targets.get(id)
    return t ? [candidateOf(t)] : []
  })
}

export function revealOf(row: SessionRow, target: TargetRow, score: Schemas['PracticeScore']) {
  return {
    targetId: target.id,
    imageSha256: target.image_sha256,
    nonce: row.nonce,
    commitment: row.commitment,
    rank: row.rank ?? 0,
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
  vocabulary: Vocabulary,
) {
  return withTransaction(db, async (client) => {
    const row = await sessionOf(client, id, userId, true)
    if (!row) throw notFound('Practice session not found')
    if (!row.locked_at || !row.candidates) {
      throw new AppError('session_not_locked', 409, 'Lock the write-up before judging.')
    }
    if (row.judged_at) throw new AppError('session_judged', 409, 'This session is already judged.')
    checkRanking(ranking, row.candidates)
    const target = await targetById(client, row.target_id)
    if (!target) throw new Error(`target ${row.target_id} of session ${row.id} is missing`)
    const rank = ranking.indexOf(row.target_id) + 1
    const score = scoreWriteUp(row.write_up as WriteUp, target.tags, vocabulary)
    const { rows } = await client.query<SessionRow>(
      `UPDATE practice.sessions SET judged_at = now(), ranking = $2::uuid[], rank = $3, score = $4
       WHERE id = $1 RETURNING *`,
      [id, ranking, rank, JSON.stringify(score)],
    )
    const judged = rows[0] as SessionRow
    return revealOf(judged, target, score)
  })
}
