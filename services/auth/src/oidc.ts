import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, lt } from 'drizzle-orm'
import { text, timestamp } from 'drizzle-orm/pg-core'
import type { FastifyReply, FastifyRequest } from 'fastify'
import * as client from 'openid-client'
import type { Handlers } from '@crv/kit'
import type { AuthServices } from './app.ts'
import type { AuthConfig } from './config.ts'
import { auth } from './schema.ts'
import { startSession } from './sessions.ts'
import { signInWithIdentity } from './users.ts'
import type { IdentityProfile } from './users.ts'

/**
 * Social sign-in through one OpenID Connect provider: authorization code flow with PKCE (S256),
 * state and nonce. A login in progress lives in `auth.oidc_logins` for ten minutes, is used
 * once, and belongs to the browser that started it (the `crv_oidc` cookie), so a state (or a
 * whole callback URL) cannot be replayed, nor completed in another browser.
 */

export const GOOGLE_ISSUER = 'https://accounts.google.com'
export const OIDC_SCOPES = 'openid profile email'
export const OIDC_BROWSER_COOKIE = 'crv_oidc'
export const OIDC_LOGIN_TTL_SECONDS = 600
const CALLBACK_PATH = '/api/auth/oidc/callback'
const DISCOVERY_TIMEOUT_SECONDS = 10

export type OidcMode = 'popup' | 'redirect'
export type OidcErrorCode =
  'oidc_unavailable' | 'oidc_denied' | 'oidc_state_invalid' | 'oidc_failed'
export type OidcResult = { ok: true } | { ok: false; code: OidcErrorCode }

// Mirrors migrations/0002_oidc_logins.sql.
export const oidcLogins = auth.table('oidc_logins', {
  stateHash: text('state_hash').primaryKey(),
  browserHash: text('browser_hash').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  mode: text('mode', { enum: ['popup', 'redirect'] }).notNull(),
  returnTo: text('return_to').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
})

/** A sign-in failure with its stable code; the cause stays in the log. */
export class OidcFailure extends Error {
  readonly code: OidcErrorCode
  constructor(code: OidcErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'OidcFailure'
    this.code = code
  }
}

export interface OidcSettings {
  issuer: URL
  clientId: string
  clientSecret: string
  redirectUri: string
}

/** The provider to use, or null when social sign-in is off. Google when only id/secret are set. */
export function oidcSettings(config: AuthConfig): OidcSettings | null {
  if (!config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null
  return {
    issuer: new URL(config.OIDC_ISSUER ?? GOOGLE_ISSUER),
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    redirectUri: new URL(CALLBACK_PATH, config.PUBLIC_URL).href,
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * client_secret_basic unless the provider says it supports only client_secret_post (a provider
 * that lists no methods supports basic, per OpenID Connect Discovery).
 */
function clientAuthentication(secret: string): client.ClientAuth {
  const basic = client.ClientSecretBasic(secret)
  const post = client.ClientSecretPost(secret)
  return (as, metadata, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported
    const usePost =
      Array.isArray(methods) &&
      !methods.includes('client_secret_basic') &&
      methods.includes('client_secret_post')
    return (usePost ? post : basic)(as, metadata, body, headers)
  }
}

/**
 * The provider's configuration, discovered on first use and kept. A failed discovery is not
 * kept: the next sign-in tries again, so a provider that was down at start-up costs nothing.
 */
export function lazyDiscovery(settings: OidcSettings): () => Promise<client.Configuration> {
  let pending: Promise<client.Configuration> | null = null
  const discover = async () => {
    // Plain HTTP only for a provider on this machine (development and tests).
    const insecure = settings.issuer.protocol === 'http:' && LOOPBACK.has(settings.issuer.hostname)
    try {
      return await client.discovery(
        settings.issuer,
        settings.clientId,
        { client_secret: settings.clientSecret },
        clientAuthentication(settings.clientSecret),
        {
          timeout: DISCOVERY_TIMEOUT_SECONDS,
          // Check the ID token's signature too, not only its claims.
          execute: insecure
            ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
            : [client.enableNonRepudiationChecks],
        },
      )
    } catch (err) {
      throw new OidcFailure('oidc_unavailable', 'OpenID Connect discovery failed', { cause: err })
    }
  }
  return () => {
    pending ??= discover().catch((err: unknown) => {
      pending = null
      throw err
    })
    return pending
  }
}

/** A same-site path (`/x…`, not `//x`, no scheme, no backslash, no controls), or `/`. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 512) return '/'
  // eslint-disable-next-line no-control-regex
  if (!/^\/(?![/\\])[^\s\\\u0000-\u001f\u007f]*$/.test(value)) return '/'
  const base = 'http://return-to.invalid'
  let url: URL
  try {
    url = new URL(value, base)
  } catch {
    return '/'
  }
  if (url.origin !== base) return '/'
  const path = `${url.pathname}${url.search}${url.hash}`
  // Normalising turns `/.//evil.example` and `/%2e%2e//evil.example` into `//evil.example`, which
  // a browser follows to another site: check what comes out, not only what went in.
  if (!path.startsWith('/') || path.startsWith('//') || new URL(path, base).origin !== base) {
    return '/'
  }
  return path
}

function withAuthError(returnTo: string, code: OidcErrorCode): string {
  const url = new URL(returnTo, 'http://return-to.invalid')
  url.searchParams.set('authError', code)
  return `${url.pathname}${url.search}${url.hash}`
}

const attribute = (value: string) => value.replace(/[&'<>]/g, (c) => `&#${c.charCodeAt(0)};`)

/** The popup's page: no inline script (the CSP allows only 'self'); /auth-callback.js reports. */
export function callbackPage(result: OidcResult): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CRV Training</title>' +
    `</head><body data-result='${attribute(JSON.stringify(result))}'>` +
    '<script src="/auth-callback.js"></script></body></html>\n'
  )
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url')
const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/

const isNetworkError = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return true
  return err instanceof TypeError && err.message === 'fetch failed'
}

/** Maps whatever went wrong to a stable code; unknown errors are `oidc_failed`. */
export function failureCode(err: unknown): OidcErrorCode {
  if (err instanceof OidcFailure) return err.code
  if (isNetworkError(err)) return 'oidc_unavailable'
  if (err instanceof client.ResponseBodyError && err.status >= 500) return 'oidc_unavailable'
  if (err instanceof client.ClientError) {
    const cause = err.cause
    if (cause instanceof Response && cause.status >= 500) return 'oidc_unavailable'
    if (isNetworkError(cause)) return 'oidc_unavailable'
  }
  return 'oidc_failed'
}

const fromProvider = (err: unknown) =>
  err instanceof OidcFailure ||
  err instanceof client.ClientError ||
  err instanceof client.ResponseBodyError ||
  err instanceof client.AuthorizationResponseError ||
  err instanceof client.WWWAuthenticateChallengeError

const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null
const verified = (value: unknown) => value === true || value === 'true'

export function oidcHandlers(services: AuthServices): Handlers {
  const { config, db, session } = services
  const settings = oidcSettings(config)
  const provider = settings ? lazyDiscovery(settings) : null
  const adminEmails = new Set(config.ADMIN_EMAILS.map((e) => e.trim().toLowerCase()))

  const cookieOptions = {
    httpOnly: true,
    // Lax: the provider sends the browser back with a top-level GET from its own site.
    sameSite: 'lax' as const,
    secure: session.secureCookie,
    path: '/api/auth/oidc',
  }

  /** This browser's id (kept across logins, so two logins at once in one browser both work). */
  function browserId(request: FastifyRequest, reply: FastifyReply): string {
    const present = request.cookies[OIDC_BROWSER_COOKIE]
    const id = present && BROWSER_ID.test(present) ? present : randomBytes(32).toString('base64url')
    reply.setCookie(OIDC_BROWSER_COOKIE, id, { ...cookieOptions, maxAge: OIDC_LOGIN_TTL_SECONDS })
    return id
  }

  function answer(
    reply: FastifyReply,
    mode: OidcMode | null,
    returnTo: string,
    result: OidcResult,
  ) {
    reply.header('cache-control', 'no-store')
    if (mode === 'redirect') {
      // Checked again on the way out: a login stored before a fix must not redirect off-site.
      const target = safeReturnTo(result.ok ? returnTo : withAuthError(returnTo, result.code))
      return reply.redirect(target, 302)
    }
    // Popup mode, or a callback whose login is unknown: the page also works without an opener.
    // The popup arrives here from the provider's site; any stricter opener policy would make
    // the browser cut the popup off from the window that opened it.
    return reply
      .code(200)
      .header('cross-origin-opener-policy', 'unsafe-none')
      .type('text/html; charset=utf-8')
      .send(callbackPage(result))
  }

  function fail(
    request: FastifyRequest,
    reply: FastifyReply,
    mode: OidcMode | null,
    returnTo: string,
    err: unknown,
  ) {
    const code = failureCode(err)
    // The provider's answers and the user's doing are warnings; anything else is our fault.
    const level = code === 'oidc_failed' && !fromProvider(err) ? 'error' : 'warn'
    request.log[level]({ err, code }, 'OpenID Connect sign-in failed')
    return answer(reply, mode, returnTo, { ok: false, code })
  }

  async function configuration(): Promise<{ cfg: client.Configuration; redirectUri: string }> {
    if (!settings || !provider) {
      throw new OidcFailure('oidc_unavailable', 'OpenID Connect is not configured')
    }
    return { cfg: await provider(), redirectUri: settings.redirectUri }
  }

  /** Takes the login for this state, once, if this browser started it and it has not expired. */
  async function takeLogin(state: string | undefined, browser: string | undefined) {
    if (!state || !browser || !BROWSER_ID.test(browser)) return null
    const [login] = await db
      .delete(oidcLogins)
      .where(
        and(
          eq(oidcLogins.stateHash, sha256(state)),
          eq(oidcLogins.browserHash, sha256(browser)),
          gt(oidcLogins.expiresAt, new Date()),
        ),
      )
      .returning()
    return login ?? null
  }

  /** The claims of the verified ID token; what it lacks of the profile, from UserInfo. */
  async function profileOf(
    cfg: client.Configuration,
    tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>,
  ): Promise<IdentityProfile> {
    const idToken = tokens.claims()
    if (!idToken) throw new OidcFailure('oidc_failed', 'The provider sent no ID token')
    let claims: Record<string, unknown> = idToken
    const lacking = !str(claims.email) || !str(claims.name)
    if (lacking && cfg.serverMetadata().userinfo_endpoint) {
      try {
        // UserInfo answers for the same subject only (checked), over the provider's TLS.
        const info = await client.fetchUserInfo(cfg, tokens.access_token, idToken.sub)
        // The e-mail and its verification come from the same source.
        const source: Record<string, unknown> = str(idToken.email) ? idToken : info
        claims = {
          ...info,
          ...idToken,
          email: source.email,
          email_verified: source.email_verified,
        }
      } catch {
        // The ID token alone is enough to sign in.
      }
    }
    const email = str(claims.email)
    return {
      issuer: idToken.iss,
      subject: idToken.sub,
      email,
      emailVerified: email !== null && verified(claims.email_verified),
      name: str(claims.name),
      givenName: str(claims.given_name),
      picture: str(claims.picture),
    }
  }

  return {
    startOidcSignIn: async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as { mode?: OidcMode; returnTo?: string }
      const mode: OidcMode = query.mode === 'popup' ? 'popup' : 'redirect'
      const returnTo = safeReturnTo(query.returnTo)
      try {
        const { cfg, redirectUri } = await configuration()
        const state = client.randomState()
        const nonce = client.randomNonce()
        const codeVerifier = client.randomPKCECodeVerifier()
        const browser = browserId(request, reply)
        const now = Date.now()
        await db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, new Date(now)))
        await db.insert(oidcLogins).values({
          stateHash: sha256(state),
          browserHash: sha256(browser),
          nonce,
          codeVerifier,
          mode,
          returnTo,
          expiresAt: new Date(now + OIDC_LOGIN_TTL_SECONDS * 1000),
        })
        const url = client.buildAuthorizationUrl(cfg, {
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: OIDC_SCOPES,
          state,
          nonce,
          code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
        })
        reply.header('cache-control', 'no-store')
        return reply.redirect(url.href, 302)
      } catch (err) {
        return fail(request, reply, mode, returnTo, err)
      }
    },

    completeOidcSignIn: async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as { state?: string; error?: string }
      let mode: OidcMode | null = null
      let returnTo = '/'
      try {
        if (!settings) {
          throw new OidcFailure('oidc_unavailable', 'OpenID Connect is not configured')
        }
        const login = await takeLogin(query.state, request.cookies[OIDC_BROWSER_COOKIE])
        if (!login) {
          throw new OidcFailure('oidc_state_invalid', 'Unknown, expired, used or foreign state')
        }
        mode = login.mode
        returnTo = login.returnTo
        if (query.error) {
          throw new OidcFailure(
            query.error === 'access_denied' ? 'oidc_denied' : 'oidc_failed',
            `The provider answered ${query.error}`,
          )
        }
        const { cfg, redirectUri } = await configuration()
        const current = new URL(redirectUri)
        current.search = new URL(request.url, 'http://callback.invalid').search
        const tokens = await client.authorizationCodeGrant(cfg, current, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: query.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        })
        const profile = await profileOf(cfg, tokens)
        const admin =
          profile.emailVerified &&
          profile.email !== null &&
          adminEmails.has(profile.email.toLowerCase())
        const user = await signInWithIdentity(db, profile, admin)
        await startSession(session, reply, user)
        return answer(reply, mode, returnTo, { ok: true })
      } catch (err) {
        return fail(request, reply, mode, returnTo, err)
      }
    },
  }
}
