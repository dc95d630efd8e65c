// Every statement about pools and their targets. Plain objects back; what an administrator may
// do to them is decided in pools.ts.
import type { Pool, PoolClient } from 'pg'

import type { Licence } from '../target-import/licences.ts'

type Queryable = Pool | PoolClient

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

/** A target with how many sessions' sets hold it. */
export type TargetWithUse = TargetRow & { sessions: number }

export interface PoolRow {
  id: string
  slug: string
  name: string
  targets: number
  active: number
}

// `@>` and not `= ANY`: the sets' GIN index answers it, instead of a scan of every session.
const USE_COUNT = `(SELECT count(*)::int FROM practice.sessions s
                    WHERE s.candidates @> ARRAY[t.id]) AS sessions`

/** Every pool with its counts of targets (not deleted) and active ones (not retired either). */
export async function poolsWithCounts(db: Queryable): Promise<PoolRow[]> {
  const { rows } = await db.query<PoolRow>(
    `SELECT p.id, p.slug, p.name,
            count(t.id) FILTER (WHERE t.deleted_at IS NULL)::int AS targets,
            count(t.id) FILTER (WHERE t.deleted_at IS NULL AND t.retired_at IS NULL)::int AS active
     FROM practice.pools p LEFT JOIN practice.targets t ON t.pool_id = p.id
     GROUP BY p.id ORDER BY p.created_at, p.name`,
  )
  return rows
}

/** A new pool's id (a taken name: the unique index refuses it, 23505). */
export async function insertPool(
  db: Queryable,
  pool: { slug: string; name: string },
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO practice.pools (slug, name) VALUES ($1, $2) RETURNING id`,
    [pool.slug, pool.name],
  )
  return rows[0]?.id
}

/** Renames a pool; false if there is none of this id (a taken name: 23505). */
export async function renamePool(db: Queryable, poolId: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE practice.pools SET name = $2 WHERE id = $1', [
    poolId,
    name,
  ])
  return (rowCount ?? 0) > 0
}

export async function targetWithUse(db: Queryable, id: string): Promise<TargetWithUse | null> {
  const { rows } = await db.query<TargetWithUse>(
    `SELECT t.*, ${USE_COUNT} FROM practice.targets t WHERE t.id = $1 AND t.deleted_at IS NULL`,
    [id],
  )
  return rows[0] ?? null
}

/** The targets not deleted, of one pool or of all, newest first (at most 10,000). */
export async function targetsWithUse(
  db: Queryable,
  poolId: string | undefined,
): Promise<TargetWithUse[]> {
  const { rows } = await db.query<TargetWithUse>(
    `SELECT t.*, ${USE_COUNT} FROM practice.targets t
     WHERE t.deleted_at IS NULL AND ($1::uuid IS NULL OR t.pool_id = $1)
     ORDER BY t.created_at DESC, t.title LIMIT 10000`,
    [poolId ?? null],
  )
  return rows
}

/** A target's changes: a field left undefined stays as it is. */
export interface TargetPatch {
  title?: string | undefined
  feedback?: string | undefined
  tags?: string[] | undefined
  licence?: Licence | undefined
  source?: string | undefined
  /** Set (to a text or null) when given. */
  attribution?: string | null | undefined
  frontloading?: string | null | undefined
  retired?: boolean | undefined
}

export async function updateTarget(db: Queryable, id: string, patch: TargetPatch): Promise<void> {
  await db.query(
    `UPDATE practice.targets SET
       title = COALESCE($2, title), feedback = COALESCE($3, feedback),
       tags = COALESCE($4, tags), licence = COALESCE($5, licence), source = COALESCE($6, source),
       attribution = CASE WHEN $7::boolean THEN $8 ELSE attribution END,
       frontloading = CASE WHEN $9::boolean THEN $10 ELSE frontloading END,
       retired_at = CASE WHEN $11::boolean IS NULL THEN retired_at
                         WHEN $11 THEN COALESCE(retired_at, now()) ELSE NULL END
     WHERE id = $1`,
    [
      id,
      patch.title ?? null,
      patch.feedback ?? null,
      patch.tags ?? null,
      patch.licence ?? null,
      patch.source ?? null,
      patch.attribution !== undefined,
      patch.attribution ?? null,
      patch.frontloading !== undefined,
      patch.frontloading ?? null,
      patch.retired ?? null,
    ],
  )
}

/** How many sessions' sets show a target, and how many sessions hold it as their target. */
export async function targetUse(
  db: Queryable,
  id: string,
): Promise<{ shown: number; held: number }> {
  const { rows } = await db.query<{ shown: number; held: number }>(
    `SELECT (SELECT count(*)::int FROM practice.sessions
             WHERE candidates @> ARRAY[$1::uuid]) AS shown,
            (SELECT count(*)::int FROM practice.sessions WHERE target_id = $1) AS held`,
    [id],
  )
  return rows[0] ?? { shown: 0, held: 0 }
}

/** Hides a target (its row stays for a session that holds it). */
export async function markTargetDeleted(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE practice.targets SET deleted_at = now() WHERE id = $1', [id])
}

export async function deleteTarget(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM practice.targets WHERE id = $1', [id])
}
