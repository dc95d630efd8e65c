import { randomBytes } from 'node:crypto'
import type { Database } from '@crv/kit/db'
import type { UserRow } from '../db/schema.ts'
import {
  findUserByEmail,
  findUserByIdentity,
  insertUser,
  linkIdentity,
  updateRole,
  updateUser,
  upsertPhoneUser,
} from './repository.ts'
import type { Role } from './repository.ts'

export type { Role } from './repository.ts'
export { findUser, listAdmins } from './repository.ts'

export const newUserId = () => randomBytes(16).toString('base64url')

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
  const row = await upsertPhoneUser(
    db,
    {
      id: newUserId(),
      ...phoneNames(phone),
      phone,
      role: admin ? 'admin' : 'user',
      lastSignInAt: new Date(),
    },
    admin,
  )
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
    let user = await findUserByIdentity(tx, profile.issuer, profile.subject)
    if (!user && profile.email && profile.emailVerified) {
      user = await findUserByEmail(tx, profile.email)
    }
    const displayName = profile.name ?? profile.email ?? 'Viewer'
    const firstName = profile.givenName ?? displayName.split(/\s+/)[0] ?? displayName
    if (!user) {
      user = await insertUser(tx, {
        id: newUserId(),
        displayName,
        firstName,
        email: profile.emailVerified ? profile.email : null,
        photoUrl: profile.picture,
        role: admin ? 'admin' : 'user',
        lastSignInAt: new Date(),
      })
    } else {
      user = await updateUser(tx, user.id, {
        lastSignInAt: new Date(),
        photoUrl: profile.picture ?? user.photoUrl,
        ...(admin ? { role: 'admin' as const } : {}),
      })
    }
    if (!user) throw new Error('user upsert returned nothing')
    await linkIdentity(tx, { issuer: profile.issuer, subject: profile.subject, userId: user.id })
    return user
  })
}

/** Grants or revokes the administrator role by phone or e-mail, creating the account if needed. */
export async function setRole(
  db: Database,
  who: { phone?: string; email?: string },
  role: Role,
): Promise<UserRow> {
  const updated = await updateRole(db, who, role)
  if (updated) return updated
  const names = who.phone
    ? phoneNames(who.phone)
    : {
        displayName: who.email ?? 'Viewer',
        firstName: (who.email ?? 'Viewer').split('@')[0] ?? 'Viewer',
      }
  const created = await insertUser(db, {
    id: newUserId(),
    ...names,
    phone: who.phone ?? null,
    email: who.email ?? null,
    role,
  })
  if (!created) throw new Error('user insert returned nothing')
  return created
}
