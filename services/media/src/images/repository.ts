import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'

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

interface ImageRow {
  id: string
  category: ImageCategory
  filename: string
  object_key: string
  content_type: string
  width: number
  height: number
  bytes: number
  etag: string
}

const toImage = (row: ImageRow): StoredImage => ({
  id: row.id,
  category: row.category,
  filename: row.filename,
  objectKey: row.object_key,
  contentType: row.content_type,
  width: row.width,
  height: row.height,
  bytes: row.bytes,
  etag: row.etag,
})

const COLUMNS = sql`id, category, filename, object_key, content_type, width, height, bytes, etag`

/** Who the starter set's images are recorded as uploaded by: the service itself, no user. */
export const STARTER_SET_UPLOADER = 'starter-set'

export async function insertImage(
  db: Executor,
  image: StoredImage & { uploadedBy: string },
): Promise<void> {
  await db.execute(sql`
    INSERT INTO media.tachistoscope_images
      (id, category, filename, object_key, content_type, width, height, bytes, etag, uploaded_by)
    VALUES (${image.id}, ${image.category}, ${image.filename}, ${image.objectKey},
            ${image.contentType}, ${image.width}, ${image.height}, ${image.bytes}, ${image.etag},
            ${image.uploadedBy})`)
}

/** A category's images in upload order. */
export async function listImages(db: Database, category: ImageCategory): Promise<StoredImage[]> {
  const found = await rows<ImageRow>(
    db,
    sql`SELECT ${COLUMNS} FROM media.tachistoscope_images WHERE category = ${category} ORDER BY seq`,
  )
  return found.map(toImage)
}

export async function findImage(db: Database, id: string): Promise<StoredImage | null> {
  const [row] = await rows<ImageRow>(
    db,
    sql`SELECT ${COLUMNS} FROM media.tachistoscope_images WHERE id = ${id}`,
  )
  return row ? toImage(row) : null
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
    const [row] = await rows<{ object_key: string }>(
      tx,
      sql`DELETE FROM media.tachistoscope_images WHERE id = ${id} RETURNING object_key`,
    )
    if (!row) return null
    await tx.execute(sql`
      INSERT INTO media.tachistoscope_deletions (object_key) VALUES (${row.object_key})
      ON CONFLICT (object_key) DO NOTHING`)
    return { objectKey: row.object_key }
  })
}

/** Queues an object for removal (an upload whose row could not be written). */
export async function queueDeletion(db: Database, objectKey: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO media.tachistoscope_deletions (object_key) VALUES (${objectKey})
    ON CONFLICT (object_key) DO NOTHING`)
}

export async function deletionDone(db: Database, objectKey: string): Promise<void> {
  await db.execute(sql`DELETE FROM media.tachistoscope_deletions WHERE object_key = ${objectKey}`)
}

/** Records a failed attempt; the next one waits twice as long (1 s doubling, capped at 1 h). */
export async function deletionFailed(
  db: Database,
  objectKey: string,
  error: string,
): Promise<void> {
  await db.execute(sql`
    UPDATE media.tachistoscope_deletions
    SET attempts = attempts + 1,
        last_error = ${error.slice(0, 500)},
        next_attempt_at = now() + least(interval '1 hour', interval '1 second' * power(2, least(attempts, 12)))
    WHERE object_key = ${objectKey}`)
}

export async function dueDeletions(db: Database, limit: number): Promise<string[]> {
  const due = await rows<{ object_key: string }>(
    db,
    sql`
    SELECT object_key FROM media.tachistoscope_deletions
    WHERE next_attempt_at <= now() ORDER BY next_attempt_at LIMIT ${limit}`,
  )
  return due.map((r) => r.object_key)
}

export async function pendingDeletions(
  db: Database,
): Promise<{ objectKey: string; attempts: number }[]> {
  const pending = await rows<{ object_key: string; attempts: number }>(
    db,
    sql`SELECT object_key, attempts FROM media.tachistoscope_deletions ORDER BY created_at`,
  )
  return pending.map((r) => ({
    objectKey: r.object_key,
    attempts: r.attempts,
  }))
}

/** The starter set's pictures stored so far, by slug: the image's object, or null once deleted. */
export async function starterSetRows(
  db: Database,
): Promise<{ slug: string; objectKey: string | null }[]> {
  const stored = await rows<{ slug: string; object_key: string | null }>(
    db,
    sql`
    SELECT s.slug, i.object_key
    FROM media.tachistoscope_starter_set s
    LEFT JOIN media.tachistoscope_images i ON i.id = s.image_id`,
  )
  return stored.map((r) => ({
    slug: r.slug,
    objectKey: r.object_key,
  }))
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
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('media.tachistoscope_starter_set'))`)
    const known = await rows<{ slug: string }>(
      tx,
      sql`SELECT slug FROM media.tachistoscope_starter_set`,
    )
    const seen = new Set(known.map((r) => r.slug))
    const added: string[] = []
    for (const image of images) {
      if (seen.has(image.slug)) continue
      await insertImage(tx, { ...image, uploadedBy: STARTER_SET_UPLOADER })
      await tx.execute(sql`
        INSERT INTO media.tachistoscope_starter_set (slug, image_id)
        VALUES (${image.slug}, ${image.id})`)
      added.push(image.slug)
    }
    return added
  })
}
