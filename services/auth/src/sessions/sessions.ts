import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { AppError } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { SigningKeys } from '../keys.ts'
import { revoke, sessionSubject } from '../revocations/revocations.ts'
import type { Queryable, UserRow } from '../db/schema.ts'
import { findUser } from '../users/users.ts'
import { toApiUser } from '../users/views.ts'
import type { ApiUser } from '../users/views.ts'
import {
  findRefreshToken,
  insertRefreshToken,
  markGraceUsed,
  markRotated,
  refreshTokenForUpdate,
  revokeFamilyTokens,
} from './repository.ts'

/**
 * A rotated token may come back once within this time and gets the same successor: its reply was
 * lost on a flaky network (the device still holds it), or a second tab refreshed with it at once.
 * Any later use is reuse.
 */
const ROTATION_GRACE_MS = 10_000

export interface SessionContext {
  db: Database
  keys: SigningKeys
  accessTtlSeconds: number
  refreshTtlDays: number
  secureCookie: boolean
}

/** A session's tokens: the access token and user for the body, the refresh token for the cookie. */
export interface IssuedSession {
  accessToken: string
  user: ApiUser
  refreshToken: string
}

const hash = (token: string) => createHash('sha256').update(token).digest('base64url')
export const NO_SESSION = 'no_session'
const noSession = () => new AppError(NO_SESSION, 401, 'You are not signed in')

/** `sid` names the sign-in (refresh-token family), so signing out revokes this session's tokens. */
async function accessToken(ctx: SessionContext, user: UserRow, familyId: string): Promise<string> {
  return ctx.keys.sign(
    { sub: user.id, role: user.role, name: user.firstName, sid: familyId },
    ctx.accessTtlSeconds,
  )
}

/**
 * The token that replaces a presented one: derived from it with the service's secret, so a lost
 * reply can be answered again with the same token while only its hash is stored.
 */
const successorOf = (ctx: SessionContext, presented: string) =>
  ctx.keys.hmac(`refresh-successor:${presented}`)

async function newRefreshToken(
  ctx: SessionContext,
  db: Queryable,
  userId: string,
  familyId: string,
  token = randomBytes(32).toString('base64url'),
): Promise<string> {
  await insertRefreshToken(db, {
    tokenHash: hash(token),
    familyId,
    userId,
    expiresAt: new Date(Date.now() + ctx.refreshTtlDays * 86_400_000),
  })
  return token
}

/** Starts a session: an access token, and a new refresh-token family. */
export async function openSession(ctx: SessionContext, user: UserRow): Promise<IssuedSession> {
  const familyId = randomBytes(16).toString('base64url')
  const refreshToken = await newRefreshToken(ctx, ctx.db, user.id, familyId)
  return {
    accessToken: await accessToken(ctx, user, familyId),
    user: toApiUser(user),
    refreshToken,
  }
}

/**
 * Trades a refresh token for a new access token and a rotated refresh token. A token that was
 * already rotated (beyond the grace period, or after its successor was used) or revoked is reuse: the family
 * is revoked. No token, an unknown one, reuse or a deleted account: `no_session`.
 */
export async function rotateSession(
  ctx: SessionContext,
  presented: string | undefined,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<IssuedSession> {
  if (!presented) throw noSession()
  const result = await ctx.db.transaction(async (tx) => {
    const row = await refreshTokenForUpdate(tx, hash(presented))
    if (!row || row.expiresAt.getTime() <= Date.now()) return { kind: 'none' as const }
    if (row.revokedAt) return { kind: 'reuse' as const, familyId: row.familyId }
    const next = successorOf(ctx, presented)
    if (row.rotatedAt) {
      const inGrace = Date.now() - row.rotatedAt.getTime() < ROTATION_GRACE_MS
      // The same successor, and only while it is itself unused: once the device that holds it
      // has refreshed with it, the old token coming back is a copy. Not once only: the page
      // retries a refresh that got no answer twice (1 s, 3 s), and a second lost reply signed
      // the user out; a copy of the old token gets no more by asking again.
      const successor = inGrace ? await refreshTokenForUpdate(tx, hash(next)) : undefined
      if (!successor || successor.rotatedAt || successor.revokedAt)
        return { kind: 'reuse' as const, familyId: row.familyId }
      await markGraceUsed(tx, row.tokenHash)
      return { kind: 'rotated' as const, userId: row.userId, familyId: row.familyId, next }
    }
    await markRotated(tx, row.tokenHash)
    await newRefreshToken(ctx, tx, row.userId, row.familyId, next)
    return { kind: 'rotated' as const, userId: row.userId, familyId: row.familyId, next }
  })
  if (result.kind === 'reuse') {
    await revokeFamily(ctx, result.familyId)
    log.warn({ family: result.familyId }, 'refresh token reused: session family revoked')
  }
  if (result.kind === 'none' || result.kind === 'reuse') throw noSession()
  const user = await findUser(ctx.db, result.userId)
  if (!user) throw noSession()
  return {
    accessToken: await accessToken(ctx, user, result.familyId),
    user: toApiUser(user),
    refreshToken: result.next,
  }
}

/** Ends a sign-in: its refresh tokens, and the access tokens issued for it, on every service. */
async function revokeFamily(ctx: SessionContext, familyId: string) {
  await ctx.db.transaction(async (tx) => {
    await revokeFamilyTokens(tx, familyId)
    await revoke(tx, [sessionSubject(familyId)], ctx.accessTtlSeconds)
  })
}

/**
 * Ends the session of this refresh token (its whole family) and of the access token sent with
 * it (`sessionId`).
 */
export async function closeSession(
  ctx: SessionContext,
  presented: string | undefined,
  sessionId: string | null | undefined,
): Promise<void> {
  if (presented) {
    const row = await findRefreshToken(ctx.db, hash(presented))
    if (row) await revokeFamily(ctx, row.familyId)
  }
  if (sessionId) await revoke(ctx.db, [sessionSubject(sessionId)], ctx.accessTtlSeconds)
}
