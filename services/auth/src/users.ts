import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import { identities, users } from './schema.ts'
import type { UserRow } from './schema.ts'

export type ApiUser = components['schemas']['User']
export type Role = 'user' | 'admin'

export const newUserId = () => randomBytes(16).toString('base64url')

export function toApiUser(row: UserRow): ApiUser {
  return {
    id: row.id,
    displayName: row.displayName,
    firstName: row.firstName,
    email: row.email,
    phone: row.phone,
    photoUrl: row.photoUrl,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  }
}

export async function findUser(db: Database, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row ?? null
}

/** A phone user has no name of their own: the number's last digits tell accounts apart. */
const phoneNames = (phone: string) => ({
  displayName: phone,
  firstName: `Viewer ${phone.slice(-4)}`,
})

/**
 * Signs in by phone: the account with this number, created on first sign-in. A number on the
 * administrators' list is promoted (never demoted: revoking is explicit).
 */
export async function signInByPhone(db: Database, phone: string, admin: boolean): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({
      id: newUserId(),
      ...phoneNames(phone),
      phone,
      role: admin ? 'admin' : 'user',
      lastSignInAt: new Date(),
    })
    .onConflictDoUpdate({
      target: users.phone,
      set: {
        lastSignInAt: new Date(),
        ...(admin ? { role: 'admin' as const } : {}),
      },
    })
    .returning()
  if (!row) throw new Error('user upsert returned nothing')
  return row
}

export interface IdentityProfile {
  issuer: string
  subject: string
  email: string | null
  emailVerified: boolean
  name: string | null
  givenName: string | null
  picture: string | null
}

/**
 * Signs in with an OpenID Connect identity: the account linked to (issuer, subject); on first
 * sign-in, an existing account with the same verified e-mail is linked, else one is created.
 */
export async function signInWithIdentity(
  db: Database,
  profile: IdentityProfile,
  admin: boolean,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ user: users })
      .from(identities)
      .innerJoin(users, eq(users.id, identities.userId))
      .where(and(eq(identities.issuer, profile.issuer), eq(identities.subject, profile.subject)))
    let user = linked?.user
    if (!user && profile.email && profile.emailVerified) {
      ;[user] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${profile.email})`)
    }
    const displayName = profile.name ?? profile.email ?? 'Viewer'
    const firstName = profile.givenName ?? displayName.split(/\s+/)[0] ?? displayName
    if (!user) {
      ;[user] = await tx
        .insert(users)
        .values({
          id: newUserId(),
          displayName,
          firstName,
          email: profile.emailVerified ? profile.email : null,
          photoUrl: profile.picture,
          role: admin ? 'admin' : 'user',
          lastSignInAt: new Date(),
        })
        .returning()
    } else {
      ;[user] = await tx
        .update(users)
        .set({
          lastSignInAt: new Date(),
          photoUrl: profile.picture ?? user.photoUrl,
          ...(admin ? { role: 'admin' as const } : {}),
        })
        .where(eq(users.id, user.id))
        .returning()
    }
    if (!user) throw new Error('user upsert returned nothing')
    await tx
      .insert(identities)
      .values({ issuer: profile.issuer, subject: profile.subject, userId: user.id })
      .onConflictDoNothing()
    return user
  })
}

/** Grants or revokes the administrator role by phone or e-mail, creating the account if needed. */
export async function setRole(
  db: Database,
  who: { phone?: string; email?: string },
  role: Role,
): Promise<UserRow> {
  const where = who.phone
    ? eq(users.phone, who.phone)
    : sql`lower(${users.email}) = lower(${who.email ?? ''})`
  const [updated] = await db.update(users).set({ role }).where(where).returning()
  if (updated) return updated
  const names = who.phone
    ? phoneNames(who.phone)
    : {
        displayName: who.email ?? 'Viewer',
        firstName: (who.email ?? 'Viewer').split('@')[0] ?? 'Viewer',
      }
  const [created] = await db
    .insert(users)
    .values({ id: newUserId(), ...names, phone: who.phone ?? null, email: who.email ?? null, role })
    .returning()
  if (!created) throw new Error('user insert returned nothing')
  return created
}

export async function listAdmins(db: Database): Promise<UserRow[]> {
  return db.select().from(users).where(eq(users.role, 'admin')).orderBy(users.createdAt)
}
