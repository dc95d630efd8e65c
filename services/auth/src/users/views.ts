import type { components } from '@crv/contracts'
import type { UserRow } from '../db/schema.ts'

export type ApiUser = components['schemas']['User']

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
