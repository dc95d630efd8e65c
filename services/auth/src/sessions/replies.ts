// The session's cookies: what the sessions area says, as a reply sets it.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '@crv/kit'
import type { UserRow } from '../db/schema.ts'
import { closeSession, NO_SESSION, openSession, rotateSession } from './sessions.ts'
import type { IssuedSession, SessionContext } from './sessions.ts'
import { sessionView } from './views.ts'

export const REFRESH_COOKIE = 'crv_refresh'
/**
 * A marker beside the refresh cookie that the page can read: it holds no secret, only says that
 * a session may exist, so a visitor's page does not ask for one (and log a 401) on every load.
 */
export const SESSION_MARKER_COOKIE = 'crv_session'

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

const withCookie = (ctx: SessionContext, reply: FastifyReply, session: IssuedSession) => {
  setCookie(ctx, reply, session.refreshToken)
  return sessionView(session)
}

/** Starts a session: an access token in the body, a new refresh-token family in the cookie. */
export async function startSession(ctx: SessionContext, reply: FastifyReply, user: UserRow) {
  return withCookie(ctx, reply, await openSession(ctx, user))
}

/** Trades the refresh cookie for a new session; without one that works, clears the cookie. */
export async function refreshSession(
  ctx: SessionContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  try {
    return withCookie(
      ctx,
      reply,
      await rotateSession(ctx, request.cookies[REFRESH_COOKIE], request.log),
    )
  } catch (err) {
    if (err instanceof AppError && err.code === NO_SESSION) clearCookie(ctx, reply)
    throw err
  }
}

/** Ends the session of this cookie and of the access token sent with it; clears the cookie. */
export async function endSession(
  ctx: SessionContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  await closeSession(ctx, request.cookies[REFRESH_COOKIE], request.user?.sessionId)
  clearCookie(ctx, reply)
}
