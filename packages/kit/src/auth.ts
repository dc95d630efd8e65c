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

export type TokenVerifier = (token: string) => Promise<AuthUser>

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
      return { id: payload.sub, role, name: typeof payload.name === 'string' ? payload.name : null }
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
        throw new AppError(
          'auth_unavailable',
          503,
          'Sign-in checks are unavailable right now. Please try again.',
        )
      }
      throw unauthorized('Invalid access token')
    }
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  // The spec's client sends some tokens raw, without the Bearer prefix.
  if (match?.[1]) return match[1]
  return /^\S+\.\S+\.\S*$/.test(header) ? header : null
}

/** Decides access from the verified token only, per the operation's `x-access`. */
export async function authorize(
  request: FastifyRequest,
  access: Access,
  verify: TokenVerifier,
): Promise<void> {
  const token = bearerToken(request)
  request.user = token ? await verify(token) : null
  if (access === 'public') return
  if (!request.user) throw unauthorized()
  if (access === 'admin' && request.user.role !== 'admin') {
    throw forbidden('Administrator access required')
  }
}
