// The two queues of objects to remove from storage (a deleted picture's, a deleted custom
// gestalt's) are tables of one shape; an object leaves its queue once removed, and a failed
// attempt is retried later, the wait doubling each time.
import { eq, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { Database } from '@crv/kit/db'
import type { pendingObjectDeletions, tachistoscopeDeletions } from './schema.ts'

type DeletionQueue = typeof tachistoscopeDeletions | typeof pendingObjectDeletions

export async function removedFrom(
  db: Database,
  queue: DeletionQueue,
  objectKey: string,
): Promise<void> {
  await db.delete(queue).where(eq(queue.objectKey, objectKey))
}

/** Records a failed attempt; the next one comes `wait(attempts so far)` from now. */
export async function failedIn(
  db: Database,
  queue: DeletionQueue,
  failure: { objectKey: string; error: string; wait: (attempts: AnyPgColumn) => SQL },
): Promise<void> {
  await db
    .update(queue)
    .set({
      attempts: sql`${queue.attempts} + 1`,
      lastError: failure.error.slice(0, 500),
      nextAttemptAt: sql`now() + ${failure.wait(queue.attempts)}`,
    })
    .where(eq(queue.objectKey, failure.objectKey))
}
