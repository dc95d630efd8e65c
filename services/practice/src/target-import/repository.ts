// Every statement the import and the admin upload need to add targets. Plain objects back.
import { sql } from 'drizzle-orm'
import type { Executor } from '../near-duplicates/repository.ts'
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

export async function poolIdOf(db: Executor, idOrSlug: string): Promise<string | null> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug)
  const result = await db.execute(
    uuid
      ? sql`SELECT id FROM practice.pools WHERE id = ${idOrSlug}::uuid`
      : sql`SELECT id FROM practice.pools WHERE slug = ${idOrSlug}`,
  )
  return (result.rows[0] as { id: string } | undefined)?.id ?? null
}

export async function poolSlugs(db: Executor): Promise<string[]> {
  const result = await db.execute(sql`SELECT slug FROM practice.pools ORDER BY created_at, slug`)
  return (result.rows as { slug: string }[]).map((r) => r.slug)
}

/**
 * Holds the pool's targets for the rest of the transaction: two runs adding to one pool at once
 * are checked one after the other, so neither misses the other's pictures.
 */
export async function lockPoolTargets(db: Executor, poolId: string): Promise<void> {
  await db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`practice-pool-targets:${poolId}`}))`,
  )
}

/** Adds the targets in one statement; their ids by image key. */
export async function insertTargets(
  db: Executor,
  poolId: string,
  targets: TargetToInsert[],
): Promise<Map<string, string>> {
  if (targets.length === 0) return new Map()
  const values = targets.map(
    (t) => sql`(${poolId}::uuid, ${t.title}, ${t.feedback}, ${sql.param(t.tags)}::text[],
      ${t.licence}, ${t.source}, ${t.attribution}, ${t.frontloading}, ${t.imageKey},
      ${t.imageSha256}, ${t.hash.bits}::bit(64), ${t.hash.flat}, ${t.contributedBy ?? null},
      ${t.tagKappa ?? null}::double precision)`,
  )
  const result = await db.execute(sql`
    INSERT INTO practice.targets
      (pool_id, title, feedback, tags, licence, source, attribution, frontloading, image_key,
       image_sha256, phash, phash_flat, contributed_by, tag_kappa)
    VALUES ${sql.join(values, sql`, `)}
    RETURNING id, image_key`)
  return new Map(
    (result.rows as { id: string; image_key: string }[]).map((r) => [r.image_key, r.id]),
  )
}

/** Records pictures about to be stored for rows not yet committed. */
export async function recordPendingImages(db: Executor, imageKeys: string[]): Promise<void> {
  if (imageKeys.length === 0) return
  await db.execute(sql`
    INSERT INTO practice.pending_images (image_key)
    SELECT unnest(${sql.param(imageKeys)}::text[]) ON CONFLICT DO NOTHING`)
}

export async function forgetPendingImages(db: Executor, imageKeys: string[]): Promise<void> {
  if (imageKeys.length === 0) return
  await db.execute(sql`
    DELETE FROM practice.pending_images WHERE image_key = ANY(${sql.param(imageKeys)}::text[])`)
}

/**
 * Pictures recorded before `minutes` ago whose rows never came: no target or contribution names
 * them (the rows' transaction would have removed their entries, so this is a second look, not
 * the rule).
 */
export async function abandonedPendingImages(
  db: Executor,
  minutes: number,
  limit: number,
): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT p.image_key FROM practice.pending_images p
    WHERE p.created_at < now() - make_interval(mins => ${minutes})
      AND NOT EXISTS (SELECT 1 FROM practice.targets t WHERE t.image_key = p.image_key)
      AND NOT EXISTS (SELECT 1 FROM practice.contributions c WHERE c.image_key = p.image_key)
    ORDER BY p.created_at LIMIT ${limit}`)
  return (result.rows as { image_key: string }[]).map((r) => r.image_key)
}
