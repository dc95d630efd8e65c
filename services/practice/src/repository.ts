// SQL of the practice schema. Rows come back as plain objects; no function here decides who may
// see what (the domain in sessions.ts does).
import type { Pool, PoolClient } from 'pg'

export interface TargetRow {
  id: string
  pool_id: string
  slug: string | null
  title: string
  feedback: string
  tags: string[]
  licence: 'CC0-1.0' | 'public-domain' | 'CC-BY-4.0' | 'own'
  source: string
  attribution: string | null
  frontloading: string | null
  image_key: string
  image_sha256: string
  retired_at: Date | null
  deleted_at: Date | null
  created_at: Date
}

export interface SessionRow {
  id: string
  user_id: string
  pool_id: string
  target_id: string
  trn: string
  nonce: string
  commitment: string
  candidate_count: number
  frontloading: string | null
  started_at: Date
  lst_hours: number | null
  latitude: number | null
  longitude: number | null
  write_up: Record<string, unknown>
  revision: number
  updated_at: Date
  locked_at: Date | null
  write_up_sha256: string | null
  candidates: string[] | null
  judged_at: Date | null
  ranking: string[] | null
  rank: number | null
  score: Record<string, unknown> | null
}

export type Queryable = Pool | PoolClient

export async function poolBySlug(db: Queryable, slug: string): Promise<{ id: string } | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM practice.pools WHERE slug = $1', [
    slug,
  ])
  return rows[0] ?? null
}

export async function poolExists(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM practice.pools WHERE id = $1', [id])
  return (rowCount ?? 0) > 0
}

/** Active targets of a pool (not retired, not deleted). */
export async function activeTargetIds(db: Queryable, poolId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM practice.targets WHERE pool_id = $1 AND retired_at IS NULL AND deleted_at IS NULL',
    [poolId],
  )
  return rows.map((r) => r.id)
}

export async function targetById(db: Queryable, id: string): Promise<TargetRow | null> {
  const { rows } = await db.query<TargetRow>('SELECT * FROM practice.targets WHERE id = $1', [id])
  return rows[0] ?? null
}

export async function targetsByIds(db: Queryable, ids: string[]): Promise<Map<string, TargetRow>> {
  if (ids.length === 0) return new Map()
  const { rows } = await db.query<TargetRow>(
    'SELECT * FROM practice.targets WHERE id = ANY($1::uuid[])',
    [ids],
  )
  return new Map(rows.map((r) => [r.id, r]))
}

export async function targetByImageKey(db: Queryable, key: string): Promise<TargetRow | null> {
  const { rows } = await db.query<TargetRow>(
    'SELECT * FROM practice.targets WHERE image_key = $1',
    [key],
  )
  return rows[0] ?? null
}

export async function sessionOf(
  db: Queryable,
  id: string,
  userId: string,
  forUpdate = false,
): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT * FROM practice.sessions WHERE id = $1 AND user_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, userId],
  )
  return rows[0] ?? null
}

export async function sessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionRow>(
    'SELECT * FROM practice.sessions WHERE user_id = $1 ORDER BY started_at DESC, id LIMIT 1000',
    [userId],
  )
  return rows
}

/** Every session of the user, oldest first (their export). */
export async function allSessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionRow>(
    'SELECT * FROM practice.sessions WHERE user_id = $1 ORDER BY started_at, id',
    [userId],
  )
  return rows
}

/** Deletes every session of the user (their account is going). */
export async function deleteSessionsOf(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM practice.sessions WHERE user_id = $1', [userId])
}

export async function countSessionsOf(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM practice.sessions WHERE user_id = $1',
    [userId],
  )
  return rows[0]?.n ?? 0
}

export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  } finally {
    client.release()
  }
}
