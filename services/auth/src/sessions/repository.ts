import { and, eq, isNull } from 'drizzle-orm'
import { refreshTokens } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

export type RefreshTokenRow = typeof refreshTokens.$inferSelect

export async function insertRefreshToken(
  db: Queryable,
  token: { tokenHash: string; familyId: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(token)
}

export async function findRefreshToken(
  db: Queryable,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash))
  return row
}

/** The token, locked for the transaction. */
export async function refreshTokenForUpdate(
  tx: Queryable,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .for('update')
  return row
}

export async function markRotated(tx: Queryable, tokenHash: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ rotatedAt: new Date() })
    .where(eq(refreshTokens.tokenHash, tokenHash))
}

export async function markGraceUsed(tx: Queryable, tokenHash: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ graceUsedAt: new Date() })
    .where(eq(refreshTokens.tokenHash, tokenHash))
}

export async function revokeFamilyTokens(tx: Queryable, familyId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
}
