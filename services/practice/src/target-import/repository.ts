// Every statement the import and the admin upload need to add targets. Plain objects back.
import { and, asc, eq, lt, notExists, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import { contributions, pendingImages, pools, targets } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import type { PerceptualHash } from '../near-duplicates/perceptual-hash.ts'
import type { Licence } from './licences.ts'

export interface TargetToInsert {
  title: string
  feedback: string
  tags: string[]
  licence: Licence
  source: string
  attribution: string | null
  frontloading: string | null
  imageKey: string
  imageSha256: string
  hash: PerceptualHash
  /** For a contributed target: who contributed it, and Cohen's κ of its two taggers. */
  contributedBy?: string | null
  tagKappa?: number | null
}

export async function poolIdOf(db: Queryable, idOrSlug: string): Promise<string | null> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug)
  const [row] = await db
    .select({ id: pools.id })
    .from(pools)
    .where(uuid ? eq(pools.id, idOrSlug) : eq(pools.slug, idOrSlug))
  return row?.id ?? null
}

export async function poolSlugs(db: Queryable): Promise<string[]> {
  const found = await db
    .select({ slug: pools.slug })
    .from(pools)
    .orderBy(pools.createdAt, pools.slug)
  return found.map((r) => r.slug)
}

/**
 * Holds the pool's targets for the rest of the transaction: two runs adding to one pool at once
 * are checked one after the other, so neither misses the other's pictures.
 */
export async function lockPoolTargets(db: Queryable, poolId: string): Promise<void> {
  await rows(db, sql`SELECT pg_advisory_xact_lock(hashtext(${`practice-pool-targets:${poolId}`}))`)
}

/** Adds the targets in one statement; their ids by image key. */
export async function insertTargets(
  db: Queryable,
  poolId: string,
  toInsert: TargetToInsert[],
): Promise<Map<string, string>> {
  if (toInsert.length === 0) return new Map()
  const added = await db
    .insert(targets)
    .values(
      toInsert.map((t) => ({
        poolId,
        title: t.title,
        feedback: t.feedback,
        tags: t.tags,
        licence: t.licence,
        source: t.source,
        attribution: t.attribution,
        frontloading: t.frontloading,
        imageKey: t.imageKey,
        imageSha256: t.imageSha256,
        phash: t.hash.bits,
        phashFlat: t.hash.flat,
        contributedBy: t.contributedBy ?? null,
        tagKappa: t.tagKappa ?? null,
      })),
    )
    .returning({ id: targets.id, imageKey: targets.imageKey })
  return new Map(added.map((r) => [r.imageKey, r.id]))
}

/** Records pictures about to be stored for rows not yet committed. */
export async function recordPendingImages(db: Queryable, imageKeys: string[]): Promise<void> {
  if (imageKeys.length === 0) return
  await db
    .insert(pendingImages)
    .values(imageKeys.map((imageKey) => ({ imageKey })))
    .onConflictDoNothing()
}

export async function forgetPendingImages(db: Queryable, imageKeys: string[]): Promise<void> {
  if (imageKeys.length === 0) return
  await db
    .delete(pendingImages)
    .where(sql`${pendingImages.imageKey} = ANY(${sql.param(imageKeys)}::text[])`)
}

/**
 * Pictures recorded before `minutes` ago whose rows never came: no target or contribution names
 * them (the rows' transaction would have removed their entries, so this is a second look, not
 * the rule).
 */
export async function abandonedPendingImages(
  db: Queryable,
  minutes: number,
  limit: number,
): Promise<string[]> {
  const found = await db
    .select({ imageKey: pendingImages.imageKey })
    .from(pendingImages)
    .where(
      and(
        lt(pendingImages.createdAt, sql`now() - make_interval(mins => ${minutes})`),
        notExists(
          db
            .select({ one: sql`1` })
            .from(targets)
            .where(eq(targets.imageKey, pendingImages.imageKey)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(contributions)
            .where(eq(contributions.imageKey, pendingImages.imageKey)),
        ),
      ),
    )
    .orderBy(asc(pendingImages.createdAt))
    .limit(limit)
  return found.map((r) => r.imageKey)
}
