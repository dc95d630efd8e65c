import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'

// media.custom_words keeps its name (migrations stay as they are); a row is a custom gestalt.
export interface CustomGestaltRow {
  id: number
  userId: string
  word: string
  objectKey: string
}

interface RawRow {
  id: string | number
  user_id: string
  word: string
  object_key: string
}

const toRow = (raw: RawRow): CustomGestaltRow => ({
  id: Number(raw.id),
  userId: raw.user_id,
  word: raw.word,
  objectKey: raw.object_key,
})

async function gestalts(db: Executor, query: SQL): Promise<CustomGestaltRow[]> {
  return (await rows<RawRow>(db, query)).map(toRow)
}

/** The comparison key of a word: the same word in another case is the same custom gestalt. */
export const wordKey = (word: string) => word.toLocaleLowerCase('en')

export function listCustomGestalts(db: Database, userId: string): Promise<CustomGestaltRow[]> {
  return gestalts(
    db,
    sql`SELECT id, user_id, word, object_key FROM media.custom_words
        WHERE user_id = ${userId} ORDER BY created_at, id`,
  )
}

export async function findCustomGestaltByWord(
  db: Database,
  userId: string,
  word: string,
): Promise<CustomGestaltRow | null> {
  const [row] = await gestalts(
    db,
    sql`SELECT id, user_id, word, object_key FROM media.custom_words
        WHERE user_id = ${userId} AND word_key = ${wordKey(word)}`,
  )
  return row ?? null
}

/** Records a word; null when the user has it already (a concurrent request won). */
export async function insertCustomGestalt(
  db: Database,
  entry: { userId: string; word: string; objectKey: string },
): Promise<CustomGestaltRow | null> {
  const [row] = await gestalts(
    db,
    sql`INSERT INTO media.custom_words (user_id, word, word_key, object_key)
        VALUES (${entry.userId}, ${entry.word}, ${wordKey(entry.word)}, ${entry.objectKey})
        ON CONFLICT (user_id, word_key) DO NOTHING
        RETURNING id, user_id, word, object_key`,
  )
  return row ?? null
}

/** Queues objects for removal; runs inside the transaction that drops their rows. */
export async function queueObjectDeletions(db: Executor, keys: string[]): Promise<void> {
  for (const key of keys) {
    await db.execute(
      sql`INSERT INTO media.pending_object_deletions (object_key) VALUES (${key})
          ON CONFLICT (object_key) DO UPDATE SET next_attempt_at = now()`,
    )
  }
}

/**
 * Deletes rows of the user's custom words chosen by `where` and queues their objects, in one
 * transaction: after the commit the words are gone and their objects are sure to follow.
 */
async function deleteWhere(db: Database, where: SQL): Promise<CustomGestaltRow[]> {
  return db.transaction(async (tx) => {
    const gone = await gestalts(
      tx,
      sql`DELETE FROM media.custom_words WHERE ${where} RETURNING id, user_id, word, object_key`,
    )
    await queueObjectDeletions(
      tx,
      gone.map((row) => row.objectKey),
    )
    return gone
  })
}

/** Deletes every custom gestalt of the user (their account is going) and queues the objects. */
export function deleteCustomGestaltsOfUser(
  db: Database,
  userId: string,
): Promise<CustomGestaltRow[]> {
  return deleteWhere(db, sql`user_id = ${userId}`)
}

/** The user's words with when each was made, for their export. */
export async function customGestaltsForExport(
  db: Database,
  userId: string,
): Promise<(CustomGestaltRow & { createdAt: string })[]> {
  const found = await rows<RawRow & { created_at: string | Date }>(
    db,
    sql`SELECT id, user_id, word, object_key, created_at FROM media.custom_words
        WHERE user_id = ${userId} ORDER BY created_at, id`,
  )
  return found.map((raw) => ({
    ...toRow(raw),
    createdAt: new Date(raw.created_at).toISOString(),
  }))
}

export async function deleteCustomGestalt(
  db: Database,
  userId: string,
  id: number,
): Promise<CustomGestaltRow | null> {
  const [row] = await deleteWhere(db, sql`id = ${id} AND user_id = ${userId}`)
  return row ?? null
}

/** Deletes the user's word recorded with this object, if any, and queues the object itself. */
export async function deleteObjectOfUser(
  db: Database,
  userId: string,
  objectKey: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`DELETE FROM media.custom_words WHERE user_id = ${userId} AND object_key = ${objectKey}`,
    )
    await queueObjectDeletions(tx, [objectKey])
  })
}

export interface PendingDeletion {
  objectKey: string
  attempts: number
}

export async function dueDeletions(db: Database, limit: number): Promise<PendingDeletion[]> {
  const due = await rows<{ object_key: string; attempts: number }>(
    db,
    sql`SELECT object_key, attempts FROM media.pending_object_deletions
        WHERE next_attempt_at <= now() ORDER BY next_attempt_at LIMIT ${limit}`,
  )
  return due.map((r) => ({
    objectKey: r.object_key,
    attempts: r.attempts,
  }))
}

export async function pendingDeletionKeys(db: Database): Promise<string[]> {
  const pending = await rows<{ object_key: string }>(
    db,
    sql`SELECT object_key FROM media.pending_object_deletions ORDER BY object_key`,
  )
  return pending.map((r) => r.object_key)
}

export async function deletionDone(db: Database, objectKey: string): Promise<void> {
  await db.execute(sql`DELETE FROM media.pending_object_deletions WHERE object_key = ${objectKey}`)
}

/** Records a failed attempt; the next one waits twice as long, at most an hour. */
export async function deletionFailed(
  db: Database,
  objectKey: string,
  error: string,
): Promise<void> {
  await db.execute(
    sql`UPDATE media.pending_object_deletions
        SET attempts = attempts + 1, last_error = ${error.slice(0, 500)},
            next_attempt_at = now() + least(interval '1 hour', interval '15 seconds' * power(2, attempts))
        WHERE object_key = ${objectKey}`,
  )
}
