import { inArray, lt } from 'drizzle-orm'
import { revokedTokens } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

/** Records the subjects as revoked until `expiresAt`, dropping the entries that have expired. */
export async function insertRevocations(
  db: Queryable,
  subjects: string[],
  expiresAt: Date,
): Promise<void> {
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()))
  await db
    .insert(revokedTokens)
    .values(subjects.map((subject) => ({ subject, expiresAt })))
    .onConflictDoUpdate({ target: revokedTokens.subject, set: { expiresAt } })
}

/** Whether any of the subjects is revoked: one indexed read. */
export async function anyRevoked(db: Queryable, subjects: string[]): Promise<boolean> {
  const rows = await db
    .select({ subject: revokedTokens.subject })
    .from(revokedTokens)
    .where(inArray(revokedTokens.subject, subjects))
    .limit(1)
  return rows.length > 0
}
