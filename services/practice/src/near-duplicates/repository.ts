// Every statement about targets' perceptual hashes. Rows come back as plain objects.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'
import type { PerceptualHash } from './perceptual-hash.ts'

export type { Executor }

export interface HashedTarget {
  id: string
  title: string
  hash: PerceptualHash
}

interface HashRow {
  id: string
  title: string
  phash: string
  phash_flat: boolean
}

/** The hashes of a pool's targets, retired ones included (they can come back); not deleted ones. */
export async function poolHashes(db: Executor, poolId: string): Promise<HashedTarget[]> {
  const found = await rows<HashRow>(
    db,
    sql`SELECT id, title, phash::text AS phash, phash_flat FROM practice.targets
        WHERE pool_id = ${poolId} AND deleted_at IS NULL AND phash IS NOT NULL`,
  )
  return found.map((r) => ({
    id: r.id,
    title: r.title,
    hash: { bits: r.phash, flat: r.phash_flat },
  }))
}

/** Targets without a hash yet, in id order after `afterId`; of one pool, or of all. */
export async function unhashedTargets(
  db: Executor,
  options: { poolId?: string | undefined; afterId: string | null; limit: number },
): Promise<{ id: string; imageKey: string }[]> {
  const found = await rows<{ id: string; image_key: string }>(
    db,
    sql`SELECT id, image_key FROM practice.targets
    WHERE phash IS NULL
      AND (${options.poolId ?? null}::uuid IS NULL OR pool_id = ${options.poolId ?? null}::uuid)
      AND (${options.afterId}::uuid IS NULL OR id > ${options.afterId}::uuid)
    ORDER BY id LIMIT ${options.limit}`,
  )
  return found.map((r) => ({
    id: r.id,
    imageKey: r.image_key,
  }))
}

export async function saveHash(db: Executor, id: string, hash: PerceptualHash): Promise<void> {
  await db.execute(sql`
    UPDATE practice.targets SET phash = ${hash.bits}::bit(64), phash_flat = ${hash.flat}
    WHERE id = ${id} AND phash IS NULL`)
}
