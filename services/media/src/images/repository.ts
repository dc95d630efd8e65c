import { eq, lte, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import { failedIn, removedFrom } from '../db/deletion-queues.ts'
import {
  tachistoscopeDeletions,
  tachistoscopeImages,
  tachistoscopeStarterSet,
} from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

export type ImageCategory = 'random' | 'people'

export interface StoredImage {
  id: string
  category: ImageCategory
  filename: string
  objectKey: string
  contentType: string
  width: number
  height: number
  bytes: number
  etag: string
}

/** The columns of a StoredImage, as the query builder selects them. */
const IMAGE = {
  id: tachistoscopeImages.id,
  category: tachistoscopeImages.category,
  filename: tachistoscopeImages.filename,
  objectKey: tachistoscopeImages.objectKey,
  contentType: tachistoscopeImages.contentType,
  width: tachistoscopeImages.width,
  height: tachistoscopeImages.height,
  bytes: tachistoscopeImages.bytes,
  etag: tachistoscopeImages.etag,
}

/** Who the starter set's images are recorded as uploaded by: the service itself, no user. */
export const STARTER_SET_UPLOADER = 'starter-set'

export async function insertImage(
  db: Queryable,
  image: StoredImage & { uploadedBy: string },
): Promise<void> {
  await db.insert(tachistoscopeImages).values({
    id: image.id,
    category: image.category,
    filename: image.filename,
    objectKey: image.objectKey,
    contentType: image.contentType,
    width: image.width,
    height: image.height,
    bytes: image.bytes,
    etag: image.etag,
    uploadedBy: image.uploadedBy,
  })
}

/** A category's images in upload order. */
export async function listImages(db: Database, category: ImageCategory): Promise<StoredImage[]> {
  return db
    .select(IMAGE)
    .from(tachistoscopeImages)
    .where(eq(tachistoscopeImages.category, category))
    .orderBy(tachistoscopeImages.seq)
}

export async function findImage(db: Database, id: string): Promise<StoredImage | null> {
  const [row] = await db
    .select(IMAGE)
    .from(tachistoscopeImages)
    .where(eq(tachistoscopeImages.id, id))
  return row ?? null
}

/**
 * Deletes the image's row and queues its object for removal, in one transaction: after the
 * commit the image is gone for everyone and its object cannot be forgotten. Null when no such
 * image exists.
 */
export async function deleteImageQueuingObject(
  db: Database,
  id: string,
): Promise<{ objectKey: string } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(tachistoscopeImages)
      .where(eq(tachistoscopeImages.id, id))
      .returning({ objectKey: tachistoscopeImages.objectKey })
    if (!row) return null
    await queueDeletion(tx, row.objectKey)
    return { objectKey: row.objectKey }
  })
}

/** Queues an object for removal (an upload whose row could not be written). */
export async function queueDeletion(db: Queryable, objectKey: string): Promise<void> {
  await db.insert(tachistoscopeDeletions).values({ objectKey }).onConflictDoNothing()
}

export async function deletionDone(db: Database, objectKey: string): Promise<void> {
  await removedFrom(db, tachistoscopeDeletions, objectKey)
}

/** Records a failed attempt; the next one waits twice as long (1 s doubling, capped at 1 h). */
export async function deletionFailed(db: Database, objectKey: string, error: string) {
  await failedIn(db, tachistoscopeDeletions, {
    objectKey,
    error,
    wait: (attempts) =>
      sql`least(interval '1 hour', interval '1 second' * power(2, least(${attempts}, 12)))`,
  })
}

export async function dueDeletions(db: Database, limit: number): Promise<string[]> {
  const due = await db
    .select({ objectKey: tachistoscopeDeletions.objectKey })
    .from(tachistoscopeDeletions)
    .where(lte(tachistoscopeDeletions.nextAttemptAt, sql`now()`))
    .orderBy(tachistoscopeDeletions.nextAttemptAt)
    .limit(limit)
  return due.map((r) => r.objectKey)
}

export async function pendingDeletions(
  db: Database,
): Promise<{ objectKey: string; attempts: number }[]> {
  return db
    .select({
      objectKey: tachistoscopeDeletions.objectKey,
      attempts: tachistoscopeDeletions.attempts,
    })
    .from(tachistoscopeDeletions)
    .orderBy(tachistoscopeDeletions.createdAt)
}

/** The starter set's pictures stored so far, by slug: the image's object, or null once deleted. */
export async function starterSetRows(
  db: Database,
): Promise<{ slug: string; objectKey: string | null }[]> {
  return db
    .select({ slug: tachistoscopeStarterSet.slug, objectKey: tachistoscopeImages.objectKey })
    .from(tachistoscopeStarterSet)
    .leftJoin(tachistoscopeImages, eq(tachistoscopeImages.id, tachistoscopeStarterSet.imageId))
}

/**
 * Records starter pictures (their objects already stored) that no start has recorded yet, each
 * image with its starter row, in one transaction under a lock: replicas starting together
 * record each picture once. The slugs recorded.
 */
export async function insertStarterImages(
  db: Database,
  images: (StoredImage & { slug: string })[],
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await rows(tx, sql`SELECT pg_advisory_xact_lock(hashtext('media.tachistoscope_starter_set'))`)
    const known = await tx
      .select({ slug: tachistoscopeStarterSet.slug })
      .from(tachistoscopeStarterSet)
    const seen = new Set(known.map((r) => r.slug))
    const added: string[] = []
    for (const image of images) {
      if (seen.has(image.slug)) continue
      await insertImage(tx, { ...image, uploadedBy: STARTER_SET_UPLOADER })
      await tx.insert(tachistoscopeStarterSet).values({ slug: image.slug, imageId: image.id })
      added.push(image.slug)
    }
    return added
  })
}
