import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose'
import type { JWTVerifyGetKey } from 'jose'
import type { FastifyRequest } from 'fastify'
import { AppError, forbidden, unauthorized } from './errors.ts'

export type Role = 'user' | 'admin'
export type Access = 'public' | 'user' | 'admin'

export interface AuthUser {
  id: string
  role: Role
  name: string | null
  /** The sign-in session (refresh-token family) the token was issued for, when it names one. */
  sessionId: string | null
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, from a verified access token; null when anonymous. */
    user: AuthUser | null
  }
}

export interface TokenVerifierOptions {
  /** URL of the auth service's JWKS, or a key resolver (tests, the auth service itself). */
  keys: URL | JWTVerifyGetKey
  issuer: string
  audience: string
}

/** `write`: the request changes something, so a revoked token must be refused too. */
export type TokenVerifier = (token: string, use?: { write: boolean }) => Promise<AuthUser>

/** True when the token was revoked (its account deleted, or its session signed out). */
export type RevocationCheck = (token: string, user: AuthUser) => Promise<boolean>

const revoked = () => unauthorized('This sign-in has ended. Please sign in again.')

/** A verifier that also refuses revoked tokens on writes (reads keep the signature check only). */
export function withRevocationCheck(verify: TokenVerifier, check: RevocationCheck): TokenVerifier {
  return async (token, use) => {
    const user = await verify(token)
    if (use?.write && (await check(token, user))) throw revoked()
    return user
  }
}

/**
 * Asks the auth service (which owns the revocation list) whether a token was revoked, with the
 * caller's own token, so the answer tells nothing about anyone else. A "not revoked" answer is
 * kept for `cacheMs` per session (or per user when the token names no session): that is how long
 * a revocation takes to reach this service; a "revoked" answer is kept until the token expires.
 * When the auth service cannot answer, writes fail closed with a 503.
 */
export function createRevocationCheck(options: { url: URL; cacheMs: number }): RevocationCheck {
  const answers = new Map<string, { revoked: boolean; until: number }>()
  return async (token, user) => {
    const key = user.sessionId ? `s:${user.sessionId}` : `u:${user.id}`
    const now = Date.now()
    const cached = answers.get(key)
    if (cached && cached.until > now) return cached.revoked
    let res: Response
    try {
      res = await fetch(options.url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(3_000),
      })
    } catch {
      throw authUnavailable()
    }
    if (res.status === 401) return true
    if (!res.ok) throw authUnavailable()
    const { revoked: isRevoked } = (await res.json()) as { revoked: boolean }
    if (answers.size > 10_000) answers.clear()
    if (isRevoked) answers.set(key, { revoked: true, until: now + 24 * 3_600_000 })
    else if (options.cacheMs > 0) answers.set(key, { revoked: false, until: now + options.cacheMs })
    return isRevoked
  }
}

const authUnavailable = () =>
  new AppError(
    'auth_unavailable',
    503,
    'Sign-in checks are unavailable right now. Please try again.',
  )

/**
 * Verifies access tokens against the auth service's published keys. The key set is fetched
 * once and cached; an unknown key id triggers one refetch (rate-limited by jose), so keys can
 * rotate without restarts. Only EdDSA is accepted: `alg: none` and HMAC confusion are refused.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const getKey: JWTVerifyGetKey =
    options.keys instanceof URL
      ? createRemoteJWKSet(options.keys, {
          cacheMaxAge: 10 * 60_000,
          cooldownDuration: 30_000,
          timeoutDuration: 3_000,
        })
      : options.keys
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, getKey, {
        algorithms: ['EdDSA'],
        issuer: options.issuer,
        audience: options.audience,
        requiredClaims: ['sub', 'exp', 'iat'],
      })
      const role = payload.role === 'admin' ? 'admin' : payload.role === 'user' ? 'user' : null
      if (typeof payload.sub !== 'string' || payload.sub.length === 0 || role === null) {
        throw unauthorized('Invalid access token')
      }
      return {
        id: payload.sub,
        role,
        name: typeof payload.name === 'string' ? payload.name : null,
        sessionId: typeof payload.sid === 'string' ? payload.sid : null,
      }
    } catch (err) {
      if (err instanceof AppError) throw err
      if (err instanceof joseErrors.JWTExpired)
        throw new AppError('token_expired', 401, 'Access token expired')
      if (
        err instanceof joseErrors.JWKSTimeout ||
        (err instanceof joseErrors.JOSEError && err.code === 'ERR_JWKS_INVALID') ||
        (err instanceof Error && !(err instanceof joseErrors.JOSEError))
      ) {
        // The key set could not be fetched: the caller is not at fault.
        throw authUnavailable()
      }
      throw unauthorized('Invalid access token')
    }
  }
}

/**
 * Longest Authorization header read. Our access tokens are ~400 characters; anything far longer
 * is refused before it is parsed, so no header can make a service spend time on it.
 */
export const MAX_AUTHORIZATION_LENGTH = 4096

/**
 * The access token of `Authorization: Bearer <jwt>`, or of a raw `<jwt>` (the spec's client sends
 * some tokens without the prefix). Parsed in one linear pass: a backtracking pattern here froze a
 * service for a minute on one header of dots.
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header || header.length > MAX_AUTHORIZATION_LENGTH) return null
  if (/^bearer\s/i.test(header)) {
    const token = header.slice(7).trim()
    // Whatever follows the scheme goes to verification, which refuses it with a 401.
    return token.length > 0 && !/\s/.test(token) ? token : null
  }
  return isCompactJws(header) ? header : null
}

/** Three non-empty base64url parts joined by dots (the signature part may be empty). */
function isCompactJws(token: string): boolean {
  let dots = 0
  let partLength = 0
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i)
    if (c === 0x2e) {
      if (partLength === 0 || ++dots > 2) return false
      partLength = 0
    } else if (isBase64Url(c)) partLength++
    else return false
  }
  return dots === 2
}

const isBase64Url = (c: number) =>
  (c >= 0x30 && c <= 0x39) || // 0-9
  (c >= 0x41 && c <= 0x5a) || // A-Z
  (c >= 0x61 && c <= 0x7a) || // a-z
  c === 0x2d || // -
  c === 0x5f // _

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Decides access from the verified token only, per the operation's `x-access`. A token on a
 * write must not be revoked, unless `revokedMayCall` (ending a session twice does no harm).
 */
export async function authorize(
  request: FastifyRequest,
  access: Access,
  verify: TokenVerifier,
  revokedMayCall = false,
): Promise<void> {
  const token = bearerToken(request)
  const write = !READS.has(request.method) && !revokedMayCall
  request.user = token ? await verify(token, { write }) : null
  if (access === 'public') return
  if (!request.user) throw unauthorized()
  if (access === 'admin' && request.user.role !== 'admin') {
    throw forbidden('Administrator access required')
  }
}
