import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { refreshTokens } from './schema.ts'
import type { UserRow } from './schema.ts'
import { findUser, toApiUser } from './users.ts'
import { revoke, sessionSubject } from './revocations.ts'
import type { ApiUser } from './users.ts'
import type { SigningKeys } from './keys.ts'

export const REFRESH_COOKIE = 'crv_refresh'
/**
 * A marker beside the refresh cookie that the page can read: it holds no secret, only says that
 * a session may exist, so a visitor's page does not ask for one (and log a 401) on every load.
 */
export const SESSION_MARKER_COOKIE = 'crv_session'
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

const hash = (token: string) => createHash('sha256').update(token).digest('base64url')
const noSession = () => new AppError('no_session', 401, 'You are not signed in')

function setCookie(ctx: SessionContext, reply: FastifyReply, token: string) {
  reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secureCookie,
    path: '/api/auth',
    maxAge: ctx.refreshTtlDays * 86_400,
  })
  reply.setCookie(SESSION_MARKER_COOKIE, '1', {
    httpOnly: false,
    sameSite: 'lax',
    secure: ctx.secureCookie,
    path: '/',
    maxAge: ctx.refreshTtlDays * 86_400,
  })
}

export function clearCookie(ctx: SessionContext, reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secureCookie,
  })
  reply.clearCookie(SESSION_MARKER_COOKIE, { path: '/', sameSite: 'lax', secure: ctx.secureCookie })
}

/** `sid` names the sign-in (refresh-token family), so signing out revokes this session's tokens. */
async function accessToken(ctx: SessionContext, user: UserRow, familyId: string): Promise<string> {
  return ctx.keys.sign(
    { sub: user.id, role: user.role, name: user.firstName, sid: familyId },
    ctx.accessTtlSeconds,
  )
}

type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

/**
 * The token that replaces a presented one: derived from it with the service's secret, so a lost
 * reply can be answered again with the same token while only its hash is stored.
 */
const successorOf = (ctx: SessionContext, presented: string) =>
  ctx.keys.hmac(`refresh-successor:${presented}`)

async function newRefreshToken(
  ctx: SessionContext,
  db: Executor,
  userId: string,
  familyId: string,
  token = randomBytes(32).toString('base64url'),
): Promise<string> {
  await db.insert(refreshTokens).values({
    tokenHash: hash(token),
    familyId,
    userId,
    expiresAt: new Date(Date.now() + ctx.refreshTtlDays * 86_400_000),
  })
  return token
}

/** Starts a session: an access token in the body, a new refresh-token family in the cookie. */
export async function startSession(
  ctx: SessionContext,
  reply: FastifyReply,
  user: UserRow,
): Promise<{ accessToken: string; user: ApiUser }> {
  const familyId = randomBytes(16).toString('base64url')
  const token = await newRefreshToken(ctx, ctx.db, user.id, familyId)
  setCookie(ctx, reply, token)
  return { accessToken: await accessToken(ctx, user, familyId), user: toApiUser(user) }
}

/**
 * Trades the refresh cookie for a new access token and a rotated refresh token. A token that
 * was already rotated (beyond its one use within the grace period) or revoked is reuse: the
 * family is revoked.
 */
export async function refreshSession(
  ctx: SessionContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ accessToken: string; user: ApiUser }> {
  const presented = request.cookies[REFRESH_COOKIE]
  if (!presented) {
    clearCookie(ctx, reply)
    throw noSession()
  }
  const result = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hash(presented)))
      .for('update')
    if (!row || row.expiresAt.getTime() <= Date.now()) return { kind: 'none' as const }
    if (row.revokedAt) return { kind: 'reuse' as const, familyId: row.familyId }
    const next = successorOf(ctx, presented)
    if (row.rotatedAt) {
      const inGrace = Date.now() - row.rotatedAt.getTime() < ROTATION_GRACE_MS && !row.graceUsedAt
      // The same successor, once, and only while it is itself unused: once the device that
      // holds it has refreshed with it, the old token coming back is a copy.
      const [successor] = inGrace
        ? await tx
            .select()
            .from(refreshTokens)
            .where(eq(refreshTokens.tokenHash, hash(next)))
            .for('update')
        : []
      if (!successor || successor.rotatedAt || successor.revokedAt)
        return { kind: 'reuse' as const, familyId: row.familyId }
      await tx
        .update(refreshTokens)
        .set({ graceUsedAt: new Date() })
        .where(eq(refreshTokens.tokenHash, row.tokenHash))
      return { kind: 'rotated' as const, userId: row.userId, familyId: row.familyId, next }
    }
    await tx
      .update(refreshTokens)
      .set({ rotatedAt: new Date() })
      .where(eq(refreshTokens.tokenHash, row.tokenHash))
    await newRefreshToken(ctx, tx, row.userId, row.familyId, next)
    return { kind: 'rotated' as const, userId: row.userId, familyId: row.familyId, next }
  })
  if (result.kind === 'reuse') {
    await revokeFamily(ctx, result.familyId)
    request.log.warn({ family: result.familyId }, 'refresh token reused: session family revoked')
  }
  if (result.kind === 'none' || result.kind === 'reuse') {
    clearCookie(ctx, reply)
    throw noSession()
  }
  const user = await findUser(ctx.db, result.userId)
  if (!user) {
    clearCookie(ctx, reply)
    throw noSession()
  }
  setCookie(ctx, reply, result.next)
  return { accessToken: await accessToken(ctx, user, result.familyId), user: toApiUser(user) }
}

/** Ends a sign-in: its refresh tokens, and the access tokens issued for it, on every service. */
async function revokeFamily(ctx: SessionContext, familyId: string) {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    await revoke(tx, [sessionSubject(familyId)], ctx.accessTtlSeconds)
  })
}

/**
 * Ends the session of this cookie (its whole family) and of the access token sent with it, and
 * clears the cookie.
 */
export async function endSession(
  ctx: SessionContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const presented = request.cookies[REFRESH_COOKIE]
  if (presented) {
    const [row] = await ctx.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hash(presented)))
    if (row) await revokeFamily(ctx, row.familyId)
  }
  const sessionId = request.user?.sessionId
  if (sessionId) await revoke(ctx.db, [sessionSubject(sessionId)], ctx.accessTtlSeconds)
  clearCookie(ctx, reply)
}
