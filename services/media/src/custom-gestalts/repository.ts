import { and, asc, eq, lte, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { Database } from '@crv/kit/db'
import { failedIn, removedFrom } from '../db/deletion-queues.ts'
import { customWords, pendingObjectDeletions } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

// media.custom_words keeps its name (migrations stay as they are); a row is a custom gestalt.
export interface CustomGestaltRow {
  id: number
  userId: string
  word: string
  objectKey: string
}

/** The columns of a CustomGestaltRow, as the query builder selects and returns them. */
const GESTALT = {
  id: customWords.id,
  userId: customWords.userId,
  word: customWords.word,
  objectKey: customWords.objectKey,
}

/** The comparison key of a word: the same word in another case is the same custom gestalt. */
export const wordKey = (word: string) => word.toLocaleLowerCase('en')

export async function listCustomGestalts(
  db: Database,
  userId: string,
): Promise<CustomGestaltRow[]> {
  return db
    .select(GESTALT)
    .from(customWords)
    .where(eq(customWords.userId, userId))
    .orderBy(asc(customWords.createdAt), asc(customWords.id))
}

export async function findCustomGestaltByWord(
  db: Database,
  userId: string,
  word: string,
): Promise<CustomGestaltRow | null> {
  const [row] = await db
    .select(GESTALT)
    .from(customWords)
    .where(and(eq(customWords.userId, userId), eq(customWords.wordKey, wordKey(word))))
  return row ?? null
}

/** Records a word; null when the user has it already (a concurrent request won). */
export async function insertCustomGestalt(
  db: Database,
  entry: { userId: string; word: string; objectKey: string },
): Promise<CustomGestaltRow | null> {
  const [row] = await db
    .insert(customWords)
    .values({
      userId: entry.userId,
      word: entry.word,
      wordKey: wordKey(entry.word),
      objectKey: entry.objectKey,
    })
    .onConflictDoNothing({ target: [customWords.userId, customWords.wordKey] })
    .returning(GESTALT)
  return row ?? null
}

/** Queues objects for removal; runs inside the transaction that drops their rows. */
export async function queueObjectDeletions(db: Queryable, keys: string[]): Promise<void> {
  for (const key of keys) {
    await db
      .insert(pendingObjectDeletions)
      .values({ objectKey: key })
      .onConflictDoUpdate({
        target: pendingObjectDeletions.objectKey,
        set: { nextAttemptAt: sql`now()` },
      })
  }
}

/**
 * Deletes rows of the user's custom words (those `only` picks, if given) and queues their
 * objects, in one transaction: after the commit the words are gone and their objects are sure
 * to follow.
 */
async function deleteOfUser(db: Database, userId: string, only?: SQL): Promise<CustomGestaltRow[]> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(customWords)
      .where(and(eq(customWords.userId, userId), only))
      .returning(GESTALT)
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
  return deleteOfUser(db, userId)
}

/** The user's words with when each was made, for their export. */
export async function customGestaltsForExport(
  db: Database,
  userId: string,
): Promise<(CustomGestaltRow & { createdAt: string })[]> {
  const found = await db
    .select({ ...GESTALT, createdAt: customWords.createdAt })
    .from(customWords)
    .where(eq(customWords.userId, userId))
    .orderBy(asc(customWords.createdAt), asc(customWords.id))
  return found.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }))
}

export async function deleteCustomGestalt(
  db: Database,
  userId: string,
  id: number,
): Promise<CustomGestaltRow | null> {
  const [row] = await deleteOfUser(db, userId, eq(customWords.id, id))
  return row ?? null
}

/** Deletes the user's word recorded with this object, if any, and queues the object itself. */
export async function deleteObjectOfUser(
  db: Database,
  userId: string,
  objectKey: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(customWords)
      .where(and(eq(customWords.userId, userId), eq(customWords.objectKey, objectKey)))
    await queueObjectDeletions(tx, [objectKey])
  })
}

export interface PendingDeletion {
  objectKey: string
  attempts: number
}

export async function dueDeletions(db: Database, limit: number): Promise<PendingDeletion[]> {
  return db
    .select({
      objectKey: pendingObjectDeletions.objectKey,
      attempts: pendingObjectDeletions.attempts,
    })
    .from(pendingObjectDeletions)
    .where(lte(pendingObjectDeletions.nextAttemptAt, sql`now()`))
    .orderBy(pendingObjectDeletions.nextAttemptAt)
    .limit(limit)
}

export async function pendingDeletionKeys(db: Database): Promise<string[]> {
  const pending = await db
    .select({ objectKey: pendingObjectDeletions.objectKey })
    .from(pendingObjectDeletions)
    .orderBy(pendingObjectDeletions.objectKey)
  return pending.map((r) => r.objectKey)
}

export async function deletionDone(db: Database, objectKey: string): Promise<void> {
  await removedFrom(db, pendingObjectDeletions, objectKey)
}

/** Records a failed attempt; the next one waits twice as long, at most an hour. */
export async function deletionFailed(db: Database, objectKey: string, error: string) {
  await failedIn(db, pendingObjectDeletions, {
    objectKey,
    error,
    wait: (attempts) =>
      sql`least(interval '1 hour', interval '15 seconds' * power(2, ${attempts}))`,
  })
}
