// The revocation list every service reads before a write: the auth service owns it (its schema),
// checks it locally, and answers the other services at `GET /internal/token-status`, asked with
// the token itself. The path is outside /api, so the gateway never forwards it.
import type { FastifyInstance } from 'fastify'
import { inArray, lt } from 'drizzle-orm'
import { bearerToken } from '@crv/kit'
import type { AuthUser, RevocationCheck, TokenVerifier } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { revokedTokens } from './schema.ts'

type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

export const userSubject = (userId: string) => `user:${userId}`
export const sessionSubject = (sessionId: string) => `session:${sessionId}`

const subjectsOf = (user: AuthUser) => [
  userSubject(user.id),
  ...(user.sessionId ? [sessionSubject(user.sessionId)] : []),
]

/** Kept until every access token it could name has expired (plus a minute of clock skew). */
export async function revoke(db: Executor, subjects: string[], accessTtlSeconds: number) {
  if (subjects.length === 0) return
  const expiresAt = new Date(Date.now() + (accessTtlSeconds + 60) * 1000)
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()))
  await db
    .insert(revokedTokens)
    .values(subjects.map((subject) => ({ subject, expiresAt })))
    .onConflictDoUpdate({ target: revokedTokens.subject, set: { expiresAt } })
}

/** One indexed read: the auth service's own writes see a revocation the moment it commits. */
export async function isRevoked(db: Database, user: AuthUser): Promise<boolean> {
  const rows = await db
    .select({ subject: revokedTokens.subject })
    .from(revokedTokens)
    .where(inArray(revokedTokens.subject, subjectsOf(user)))
    .limit(1)
  return rows.length > 0
}

/** Answers the other services' kit: is the caller's own token revoked? */
export function tokenStatusRoute(
  app: FastifyInstance,
  verify: TokenVerifier,
  check: RevocationCheck,
) {
  app.get('/internal/token-status', { logLevel: 'warn' }, async (request, reply) => {
    const token = bearerToken(request)
    if (!token)
      return reply.code(401).send({ error: { code: 'unauthorized', message: 'No token' } })
    const user = await verify(token)
    return { revoked: await check(token, user) }
  })
}
