import { and, eq, sql } from 'drizzle-orm'
import { identities, users } from '../db/schema.ts'
import type { Queryable, UserRow } from '../db/schema.ts'

export type Role = 'user' | 'admin'
export type NewUser = typeof users.$inferInsert

export async function findUser(db: Queryable, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row ?? null
}

/** The account with this number, created (or its sign-in time updated; promoted if admin). */
export async function upsertPhoneUser(
  db: Queryable,
  user: NewUser & { phone: string },
  admin: boolean,
): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values(user)
    .onConflictDoUpdate({
      target: users.phone,
      set: {
        lastSignInAt: new Date(),
        ...(admin ? { role: 'admin' as const } : {}),
      },
    })
    .returning()
  return row
}

export async function findUserByIdentity(
  db: Queryable,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  const [linked] = await db
    .select({ user: users })
    .from(identities)
    .innerJoin(users, eq(users.id, identities.userId))
    .where(and(eq(identities.issuer, issuer), eq(identities.subject, subject)))
  return linked?.user
}

/** By e-mail, case aside. */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
  return row
}

export async function insertUser(db: Queryable, user: NewUser): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(user).returning()
  return row
}

export async function updateUser(
  db: Queryable,
  id: string,
  set: Partial<NewUser>,
): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning()
  return row
}

export async function linkIdentity(
  db: Queryable,
  identity: { issuer: string; subject: string; userId: string },
): Promise<void> {
  await db.insert(identities).values(identity).onConflictDoNothing()
}

/** Sets the role of the account with this phone, or else this e-mail (case aside). */
export async function updateRole(
  db: Queryable,
  who: { phone?: string; email?: string },
  role: Role,
): Promise<UserRow | undefined> {
  const where = who.phone
    ? eq(users.phone, who.phone)
    : sql`lower(${users.email}) = lower(${who.email ?? ''})`
  const [updated] = await db.update(users).set({ role }).where(where).returning()
  return updated
}

export async function listAdmins(db: Queryable): Promise<UserRow[]> {
  return db.select().from(users).where(eq(users.role, 'admin')).orderBy(users.createdAt)
}
