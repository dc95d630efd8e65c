import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import { phoneCodes } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

export type PhoneCodeRow = typeof phoneCodes.$inferSelect

/** Holds the number's and the client's send locks until the transaction ends (number first). */
export async function lockSender(tx: Queryable, phone: string, client: string): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`phone:${phone}`})), pg_advisory_xact_lock(hashtext(${`ip:${client}`}))`,
  )
}

/** When the number last signed in with a code, if ever. */
export async function lastVerifiedAt(tx: Queryable, phone: string): Promise<Date | null> {
  const [last] = await tx
    .select({ at: phoneCodes.verifiedAt })
    .from(phoneCodes)
    .where(and(eq(phoneCodes.phone, phone), isNotNull(phoneCodes.verifiedAt)))
    .orderBy(desc(phoneCodes.verifiedAt))
    .limit(1)
  return last?.at ?? null
}

/** When the number's codes since `since` were sent, the newest first. */
export async function sendsSince(tx: Queryable, phone: string, since: Date): Promise<Date[]> {
  const recent = await tx
    .select({ createdAt: phoneCodes.createdAt })
    .from(phoneCodes)
    .where(and(eq(phoneCodes.phone, phone), gt(phoneCodes.createdAt, since)))
    .orderBy(desc(phoneCodes.createdAt))
  return recent.map((r) => r.createdAt)
}

/** Codes sent to this client since `since` that never signed anyone in. */
export async function unverifiedSendsFrom(
  tx: Queryable,
  client: string,
  since: Date,
): Promise<number> {
  const [fromIp] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(phoneCodes)
    .where(
      and(
        eq(phoneCodes.ip, client),
        gt(phoneCodes.createdAt, since),
        isNull(phoneCodes.verifiedAt),
      ),
    )
  return fromIp?.count ?? 0
}

/** Records a new code for the number; its earlier codes stop working. */
export async function replaceCode(
  tx: Queryable,
  code: { phone: string; codeHash: string; ip: string; expiresAt: Date },
): Promise<void> {
  await tx
    .update(phoneCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(phoneCodes.phone, code.phone), isNull(phoneCodes.consumedAt)))
  await tx.insert(phoneCodes).values(code)
}

/** The number's latest code, locked for the transaction. */
export async function latestCodeForUpdate(
  tx: Queryable,
  phone: string,
): Promise<PhoneCodeRow | undefined> {
  const [current] = await tx
    .select()
    .from(phoneCodes)
    .where(eq(phoneCodes.phone, phone))
    .orderBy(desc(phoneCodes.createdAt))
    .limit(1)
    .for('update')
  return current
}

export async function markVerified(tx: Queryable, id: number): Promise<void> {
  await tx
    .update(phoneCodes)
    .set({ consumedAt: new Date(), verifiedAt: new Date() })
    .where(eq(phoneCodes.id, id))
}

export async function recordWrongAttempt(
  tx: Queryable,
  id: number,
  attempts: number,
  burned: boolean,
): Promise<void> {
  await tx
    .update(phoneCodes)
    .set({ attempts, burned, ...(burned ? { consumedAt: new Date() } : {}) })
    .where(eq(phoneCodes.id, id))
}

/** Every code of a number (its account is being deleted). */
export async function deleteCodesOf(tx: Queryable, phone: string): Promise<void> {
  await tx.delete(phoneCodes).where(eq(phoneCodes.phone, phone))
}
