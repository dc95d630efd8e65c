// The revocation list every service reads before a write: the auth service owns it (its schema),
// checks it locally, and answers the other services at `GET /internal/token-status` (routes.ts).
import type { AuthUser } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { Queryable } from '../db/schema.ts'
import { anyRevoked, insertRevocations } from './repository.ts'

export const userSubject = (userId: string) => `user:${userId}`
export const sessionSubject = (sessionId: string) => `session:${sessionId}`

const subjectsOf = (user: AuthUser) => [
  userSubject(user.id),
  ...(user.sessionId ? [sessionSubject(user.sessionId)] : []),
]

/** Kept until every access token it could name has expired (plus a minute of clock skew). */
export async function revoke(db: Queryable, subjects: string[], accessTtlSeconds: number) {
  if (subjects.length === 0) return
  await insertRevocations(db, subjects, new Date(Date.now() + (accessTtlSeconds + 60) * 1000))
}

/** The auth service's own writes see a revocation the moment it commits. */
export async function isRevoked(db: Database, user: AuthUser): Promise<boolean> {
  return anyRevoked(db, subjectsOf(user))
}
