// Every statement about pools and their targets. Plain objects back; what an administrator may
// do to them is decided in pools.ts.
import { and, arrayContains, desc, eq, isNull, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import { pools, seedState, sessions, targets } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import type { Licence } from '../target-import/licences.ts'

export interface TargetRow {
  id: string
  pool_id: string
  slug: string | null
  title: string
  feedback: string
  tags: string[]
  licence: Licence
  source: string
  attribution: string | null
  frontloading: string | null
  image_key: string
  image_sha256: string
  retired_at: Date | null
  deleted_at: Date | null
  created_at: Date
}

/**
 * Every column of a target under its SQL name (the row `SELECT *` gives; TargetRow names the ones
 * the areas read).
 */
const targetColumns = {
  id: targets.id,
  pool_id: targets.poolId,
  slug: targets.slug,
  title: targets.title,
  feedback: targets.feedback,
  tags: targets.tags,
  licence: targets.licence,
  source: targets.source,
  attribution: targets.attribution,
  frontloading: targets.frontloading,
  image_key: targets.imageKey,
  image_sha256: targets.imageSha256,
  retired_at: targets.retiredAt,
  deleted_at: targets.deletedAt,
  created_at: targets.createdAt,
  phash: targets.phash,
  phash_flat: targets.phashFlat,
  contributed_by: targets.contributedBy,
  tag_kappa: targets.tagKappa,
}

export async function poolBySlug(db: Queryable, slug: string): Promise<{ id: string } | null> {
  const [row] = await db.select({ id: pools.id }).from(pools).where(eq(pools.slug, slug))
  return row ?? null
}

export async function poolExists(db: Queryable, id: string): Promise<boolean> {
  const found = await db.select({ id: pools.id }).from(pools).where(eq(pools.id, id))
  return found.length > 0
}

export async function targetById(db: Queryable, id: string): Promise<TargetRow | null> {
  const [row] = await db.select(targetColumns).from(targets).where(eq(targets.id, id))
  return row ?? null
}

export async function targetsByIds(db: Queryable, ids: string[]): Promise<Map<string, TargetRow>> {
  if (ids.length === 0) return new Map()
  // One array parameter (`= ANY`), not a parameter per id.
  const found = await db
    .select(targetColumns)
    .from(targets)
    .where(sql`${targets.id} = ANY(${sql.param(ids)}::uuid[])`)
  return new Map(found.map((r) => [r.id, r]))
}

export async function targetByImageKey(db: Queryable, key: string): Promise<TargetRow | null> {
  const [row] = await db.select(targetColumns).from(targets).where(eq(targets.imageKey, key))
  return row ?? null
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

// `@>` and not `= ANY`: the sets' GIN index answers it, instead of a scan of every session. The
// condition is `arrayContains` and not the columns written into the text: Drizzle leaves a column
// written straight into a selected `sql` unqualified, which the subquery would read as its own.
const useCount = sql<number>`(SELECT count(*)::int FROM ${sessions}
  WHERE ${arrayContains(sessions.candidates, sql`ARRAY[${targets.id}]`)})`

/** Every pool with its counts of targets (not deleted) and active ones (not retired either). */
export async function poolsWithCounts(db: Queryable): Promise<PoolRow[]> {
  return db
    .select({
      id: pools.id,
      slug: pools.slug,
      name: pools.name,
      targets: sql<number>`count(${targets.id}) FILTER (WHERE ${targets.deletedAt} IS NULL)::int`,
      active: sql<number>`count(${targets.id})
        FILTER (WHERE ${targets.deletedAt} IS NULL AND ${targets.retiredAt} IS NULL)::int`,
    })
    .from(pools)
    .leftJoin(targets, eq(targets.poolId, pools.id))
    .groupBy(pools.id)
    .orderBy(pools.createdAt, pools.name)
}

/** A new pool's id (a taken name: the unique index refuses it, 23505). */
export async function insertPool(
  db: Queryable,
  pool: { slug: string; name: string },
): Promise<string | undefined> {
  const [row] = await db.insert(pools).values(pool).returning({ id: pools.id })
  return row?.id
}

/** Renames a pool; false if there is none of this id (a taken name: 23505). */
export async function renamePool(db: Queryable, poolId: string, name: string): Promise<boolean> {
  const renamed = await db
    .update(pools)
    .set({ name })
    .where(eq(pools.id, poolId))
    .returning({ id: pools.id })
  return renamed.length > 0
}

export async function targetWithUse(db: Queryable, id: string): Promise<TargetWithUse | null> {
  const [row] = await db
    .select({ ...targetColumns, sessions: useCount })
    .from(targets)
    .where(and(eq(targets.id, id), isNull(targets.deletedAt)))
  return row ?? null
}

/** The targets not deleted, of one pool or of all, newest first (at most 10,000). */
export async function targetsWithUse(
  db: Queryable,
  poolId: string | undefined,
): Promise<TargetWithUse[]> {
  return db
    .select({ ...targetColumns, sessions: useCount })
    .from(targets)
    .where(
      and(isNull(targets.deletedAt), poolId === undefined ? undefined : eq(targets.poolId, poolId)),
    )
    .orderBy(desc(targets.createdAt), targets.title)
    .limit(10000)
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
  const retired = patch.retired ?? null
  // Drizzle writes only the fields that are not undefined (a null stays as it was, as ever).
  const set = {
    title: patch.title ?? undefined,
    feedback: patch.feedback ?? undefined,
    tags: patch.tags ?? undefined,
    licence: patch.licence ?? undefined,
    source: patch.source ?? undefined,
    attribution: patch.attribution,
    frontloading: patch.frontloading,
    // Retiring keeps the first retirement's time; bringing back clears it.
    retiredAt:
      retired === null ? undefined : retired ? sql`COALESCE(${targets.retiredAt}, now())` : null,
  }
  if (Object.values(set).every((value) => value === undefined)) return
  await db.update(targets).set(set).where(eq(targets.id, id))
}

/** How many sessions' sets show a target, and how many sessions hold it as their target. */
export async function targetUse(
  db: Queryable,
  id: string,
): Promise<{ shown: number; held: number }> {
  const [row] = await rows<{ shown: number; held: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM ${sessions}
                WHERE ${sessions.candidates} @> ARRAY[${id}::uuid]) AS shown,
               (SELECT count(*)::int FROM ${sessions} WHERE ${sessions.targetId} = ${id}) AS held`,
  )
  return row ?? { shown: 0, held: 0 }
}

/** Hides a target (its row stays for a session that holds it). */
export async function markTargetDeleted(db: Queryable, id: string): Promise<void> {
  await db
    .update(targets)
    .set({ deletedAt: sql`now()` })
    .where(eq(targets.id, id))
}

export async function deleteTarget(db: Queryable, id: string): Promise<void> {
  await db.delete(targets).where(eq(targets.id, id))
}

// The starter pool's seeding (seed.ts).

/** The image keys of the targets already there of these slugs. */
export async function imageKeysBySlug(
  db: Queryable,
  slugs: string[],
): Promise<{ slug: string; image_key: string }[]> {
  return db
    .select({
      // Never null here: the condition asks for a slug.
      slug: sql<string>`${targets.slug}`,
      image_key: targets.imageKey,
    })
    .from(targets)
    .where(sql`${targets.slug} = ANY(${sql.param(slugs)}::text[])`)
}

/** The hash of the manifest seeded last, if any. */
export async function seededHash(db: Queryable): Promise<string | null> {
  const [state] = await db
    .select({ dataHash: seedState.dataHash })
    .from(seedState)
    .where(eq(seedState.id, 1))
  return state?.dataHash ?? null
}

export async function saveSeededHash(db: Queryable, hash: string): Promise<void> {
  await db
    .insert(seedState)
    .values({ id: 1, dataHash: hash })
    .onConflictDoUpdate({ target: seedState.id, set: { dataHash: hash, seededAt: sql`now()` } })
}

/** The pool of this slug, created if it is not there (a name is never changed here). */
export async function ensurePool(db: Queryable, pool: { slug: string; name: string }) {
  await db.insert(pools).values(pool).onConflictDoNothing({ target: pools.slug })
}

/** A starter target, unless one of its slug is there already. */
export async function insertStarterTarget(
  db: Queryable,
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
  await db
    .insert(targets)
    .values({
      poolId,
      slug: t.slug,
      title: t.title,
      feedback: t.feedback,
      tags: t.tags,
      // The manifest's text as it is: the column's CHECK holds it to the allowed licences.
      licence: sql`${t.licence}`,
      source: t.source,
      attribution: t.attribution ?? null,
      frontloading: t.frontloading ?? null,
      imageKey: t.imageKey,
      imageSha256: t.imageSha256,
    })
    .onConflictDoNothing({ target: targets.slug })
}
