// Every statement about targets' perceptual hashes. Rows come back as plain objects.
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import { targets } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import type { PerceptualHash } from './perceptual-hash.ts'

/** The database or one of its transactions (the name the areas know it by). */
export type Executor = Queryable

export interface HashedTarget {
  id: string
  title: string
  hash: PerceptualHash
}

/** The hashes of a pool's targets, retired ones included (they can come back); not deleted ones. */
export async function poolHashes(db: Queryable, poolId: string): Promise<HashedTarget[]> {
  const found = await db
    .select({ id: targets.id, title: targets.title, bits: targets.phash, flat: targets.phashFlat })
    .from(targets)
    .where(and(eq(targets.poolId, poolId), isNull(targets.deletedAt), isNotNull(targets.phash)))
  // A hash and its flatness are null together (the table's CHECK): the condition leaves out both.
  return found.flatMap(({ id, title, bits, flat }) =>
    bits === null || flat === null ? [] : [{ id, title, hash: { bits, flat } }],
  )
}

/** Targets without a hash yet, in id order after `afterId`; of one pool, or of all. */
export async function unhashedTargets(
  db: Queryable,
  options: { poolId?: string | undefined; afterId: string | null; limit: number },
): Promise<{ id: string; imageKey: string }[]> {
  return db
    .select({ id: targets.id, imageKey: targets.imageKey })
    .from(targets)
    .where(
      and(
        isNull(targets.phash),
        options.poolId === undefined ? undefined : eq(targets.poolId, options.poolId),
        options.afterId === null ? undefined : gt(targets.id, options.afterId),
      ),
    )
    .orderBy(targets.id)
    .limit(options.limit)
}

export async function saveHash(db: Queryable, id: string, hash: PerceptualHash): Promise<void> {
  await db
    .update(targets)
    .set({ phash: hash.bits, phashFlat: hash.flat })
    .where(and(eq(targets.id, id), isNull(targets.phash)))
}
