// Every statement about pools and their targets. Plain objects back; what an administrator may
// do to them is decided in pools.ts.
import { sql } from 'drizzle-orm'
import { rows, withDates } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'
import type { Licence } from '../target-import/licences.ts'

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

const TARGET_DATES = ['retired_at', 'deleted_at', 'created_at'] as const
const targetRow = (row: TargetRow): TargetRow => withDates(row, TARGET_DATES)

export async function poolBySlug(db: Executor, slug: string): Promise<{ id: string } | null> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`SELECT id FROM practice.pools WHERE slug = ${slug}`,
  )
  return row ?? null
}

export async function poolExists(db: Executor, id: string): Promise<boolean> {
  const found = await rows<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM practice.pools WHERE id = ${id}`,
  )
  return found.length > 0
}

export async function targetById(db: Executor, id: string): Promise<TargetRow | null> {
  const [row] = await rows<TargetRow>(db, sql`SELECT * FROM practice.targets WHERE id = ${id}`)
  return row ? targetRow(row) : null
}

export async function targetsByIds(db: Executor, ids: string[]): Promise<Map<string, TargetRow>> {
  if (ids.length === 0) return new Map()
  const found = await rows<TargetRow>(
    db,
    sql`SELECT * FROM practice.targets WHERE id = ANY(${sql.param(ids)}::uuid[])`,
  )
  return new Map(found.map((r) => [r.id, targetRow(r)]))
}

export async function targetByImageKey(db: Executor, key: string): Promise<TargetRow | null> {
  const [row] = await rows<TargetRow>(
    db,
    sql`SELECT * FROM practice.targets WHERE image_key = ${key}`,
  )
  return row ? targetRow(row) : null
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
const USE_COUNT = sql.raw(`(SELECT count(*)::int FROM practice.sessions s
                    WHERE s.candidates @> ARRAY[t.id]) AS sessions`)

/** Every pool with its counts of targets (not deleted) and active ones (not retired either). */
export async function poolsWithCounts(db: Executor): Promise<PoolRow[]> {
  return rows<PoolRow>(
    db,
    sql`SELECT p.id, p.slug, p.name,
          count(t.id) FILTER (WHERE t.deleted_at IS NULL)::int AS targets,
          count(t.id) FILTER (WHERE t.deleted_at IS NULL AND t.retired_at IS NULL)::int AS active
        FROM practice.pools p LEFT JOIN practice.targets t ON t.pool_id = p.id
        GROUP BY p.id ORDER BY p.created_at, p.name`,
  )
}

/** A new pool's id (a taken name: the unique index refuses it, 23505). */
export async function insertPool(
  db: Executor,
  pool: { slug: string; name: string },
): Promise<string | undefined> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`INSERT INTO practice.pools (slug, name) VALUES (${pool.slug}, ${pool.name}) RETURNING id`,
  )
  return row?.id
}

/** Renames a pool; false if there is none of this id (a taken name: 23505). */
export async function renamePool(db: Executor, poolId: string, name: string): Promise<boolean> {
  const renamed = await rows<{ id: string }>(
    db,
    sql`UPDATE practice.pools SET name = ${name} WHERE id = ${poolId} RETURNING id`,
  )
  return renamed.length > 0
}

export async function targetWithUse(db: Executor, id: string): Promise<TargetWithUse | null> {
  const [row] = await rows<TargetWithUse>(
    db,
    sql`SELECT t.*, ${USE_COUNT} FROM practice.targets t
        WHERE t.id = ${id} AND t.deleted_at IS NULL`,
  )
  return row ? withDates(row, TARGET_DATES) : null
}

/** The targets not deleted, of one pool or of all, newest first (at most 10,000). */
export async function targetsWithUse(
  db: Executor,
  poolId: string | undefined,
): Promise<TargetWithUse[]> {
  const found = await rows<TargetWithUse>(
    db,
    sql`SELECT t.*, ${USE_COUNT} FROM practice.targets t
        WHERE t.deleted_at IS NULL AND (${poolId ?? null}::uuid IS NULL OR t.pool_id = ${poolId ?? null})
        ORDER BY t.created_at DESC, t.title LIMIT 10000`,
  )
  return found.map((r) => withDates(r, TARGET_DATES))
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

export async function updateTarget(db: Executor, id: string, patch: TargetPatch): Promise<void> {
  const setAttribution = patch.attribution !== undefined
  const setFrontloading = patch.frontloading !== undefined
  const retired = patch.retired ?? null
  await db.execute(sql`UPDATE practice.targets SET
      title = COALESCE(${patch.title ?? null}, title),
      feedback = COALESCE(${patch.feedback ?? null}, feedback),
      tags = COALESCE(${patch.tags === undefined ? null : sql.param(patch.tags)}::text[], tags),
      licence = COALESCE(${patch.licence ?? null}, licence),
      source = COALESCE(${patch.source ?? null}, source),
      attribution = CASE WHEN ${setAttribution}::boolean THEN ${patch.attribution ?? null}
                         ELSE attribution END,
      frontloading = CASE WHEN ${setFrontloading}::boolean THEN ${patch.frontloading ?? null}
                          ELSE frontloading END,
      retired_at = CASE WHEN ${retired}::boolean IS NULL THEN retired_at
                        WHEN ${retired}::boolean THEN COALESCE(retired_at, now()) ELSE NULL END
    WHERE id = ${id}`)
}

/** How many sessions' sets show a target, and how many sessions hold it as their target. */
export async function targetUse(
  db: Executor,
  id: string,
): Promise<{ shown: number; held: number }> {
  const [row] = await rows<{ shown: number; held: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM practice.sessions
                WHERE candidates @> ARRAY[${id}::uuid]) AS shown,
               (SELECT count(*)::int FROM practice.sessions WHERE target_id = ${id}) AS held`,
  )
  return row ?? { shown: 0, held: 0 }
}

/** Hides a target (its row stays for a session that holds it). */
export async function markTargetDeleted(db: Executor, id: string): Promise<void> {
  await db.execute(sql`UPDATE practice.targets SET deleted_at = now() WHERE id = ${id}`)
}

export async function deleteTarget(db: Executor, id: string): Promise<void> {
  await db.execute(sql`DELETE FROM practice.targets WHERE id = ${id}`)
}

// The starter pool's seeding (seed.ts).

/** The image keys of the targets already there of these slugs. */
export async function imageKeysBySlug(
  db: Executor,
  slugs: string[],
): Promise<{ slug: string; image_key: string }[]> {
  return rows<{ slug: string; image_key: string }>(
    db,
    sql`SELECT slug, image_key FROM practice.targets
        WHERE slug = ANY(${sql.param(slugs)}::text[])`,
  )
}

/** The hash of the manifest seeded last, if any. */
export async function seededHash(db: Executor): Promise<string | null> {
  const [state] = await rows<{ data_hash: string }>(
    db,
    sql`SELECT data_hash FROM practice.seed_state WHERE id = 1`,
  )
  return state?.data_hash ?? null
}

export async function saveSeededHash(db: Executor, hash: string): Promise<void> {
  await db.execute(
    sql`INSERT INTO practice.seed_state (id, data_hash) VALUES (1, ${hash})
        ON CONFLICT (id) DO UPDATE SET data_hash = EXCLUDED.data_hash, seeded_at = now()`,
  )
}

/** The pool of this slug, created if it is not there (a name is never changed here). */
export async function ensurePool(db: Executor, pool: { slug: string; name: string }) {
  await db.execute(
    sql`INSERT INTO practice.pools (slug, name) VALUES (${pool.slug}, ${pool.name})
        ON CONFLICT (slug) DO NOTHING`,
  )
}

/** A starter target, unless one of its slug is there already. */
export async function insertStarterTarget(
  db: Executor,
  poolId: string,
  t: {
    slug: string
    title: string
    feedback: string
    tags: string[]
    licence: string
    source: string
    attribution?: string | null | undefined
    frontloading?: string | null | undefined
    imageKey: string
    imageSha256: string
  },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO practice.targets
          (pool_id, slug, title, feedback, tags, licence, source, attribution, frontloading,
           image_key, image_sha256)
        VALUES (${poolId}, ${t.slug}, ${t.title}, ${t.feedback}, ${sql.param(t.tags)}::text[],
                ${t.licence}, ${t.source}, ${t.attribution ?? null}, ${t.frontloading ?? null},
                ${t.imageKey}, ${t.imageSha256})
        ON CONFLICT (slug) DO NOTHING`,
  )
}
