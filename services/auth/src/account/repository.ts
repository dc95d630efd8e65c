import { eq } from 'drizzle-orm'
import { identities, users } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

export type IdentityRow = typeof identities.$inferSelect

export async function identitiesOf(db: Queryable, userId: string): Promise<IdentityRow[]> {
  return db.select().from(identities).where(eq(identities.userId, userId))
}

/** Deletes the account; its identities and refresh tokens go with it (ON DELETE CASCADE). */
export async function deleteUser(tx: Queryable, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId))
}
