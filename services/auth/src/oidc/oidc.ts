import { createHash, randomBytes } from 'node:crypto'
import * as client from 'openid-client'
import type { Database } from '@crv/kit/db'
import type { AuthConfig } from '../config.ts'
import type { UserRow } from '../db/schema.ts'
import { signInWithIdentity } from '../users/users.ts'
import type { IdentityProfile } from '../users/users.ts'
import { storeLogin, takeLogin } from './repository.ts'

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

export const fromProvider = (err: unknown) =>
  err instanceof OidcFailure ||
  err instanceof client.ClientError ||
  err instanceof client.ResponseBodyError ||
  err instanceof client.AuthorizationResponseError ||
  err instanceof client.WWWAuthenticateChallengeError

const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null
const verified = (value: unknown) => value === true || value === 'true'

/** One provider's sign-in flow: its settings, its discovered configuration, the accounts. */
export interface OidcFlow {
  db: Database
  settings: OidcSettings | null
  provider: (() => Promise<client.Configuration>) | null
  adminEmails: ReadonlySet<string>
}

export function oidcFlow(config: AuthConfig, db: Database): OidcFlow {
  const settings = oidcSettings(config)
  return {
    db,
    settings,
    provider: settings ? lazyDiscovery(settings) : null,
    adminEmails: new Set(config.ADMIN_EMAILS.map((e) => e.trim().toLowerCase())),
  }
}

/** A browser id: the one presented when well formed, else a new one. */
export const browserIdOf = (present: string | undefined): string =>
  present && BROWSER_ID.test(present) ? present : randomBytes(32).toString('base64url')

async function configuration(
  flow: OidcFlow,
): Promise<{ cfg: client.Configuration; redirectUri: string }> {
  if (!flow.settings || !flow.provider) {
    throw new OidcFailure('oidc_unavailable', 'OpenID Connect is not configured')
  }
  return { cfg: await flow.provider(), redirectUri: flow.settings.redirectUri }
}

/**
 * Starts a login: stores it (for ten minutes, for this browser) and gives the provider's
 * authorization URL. `browser` is asked for only once the provider is known to be there.
 */
export async function beginLogin(
  flow: OidcFlow,
  start: { mode: OidcMode; returnTo: string },
  browser: () => string,
): Promise<URL> {
  const { cfg, redirectUri } = await configuration(flow)
  const state = client.randomState()
  const nonce = client.randomNonce()
  const codeVerifier = client.randomPKCECodeVerifier()
  const browserId = browser()
  const now = Date.now()
  await storeLogin(
    flow.db,
    {
      stateHash: sha256(state),
      browserHash: sha256(browserId),
      nonce,
      codeVerifier,
      mode: start.mode,
      returnTo: start.returnTo,
      expiresAt: new Date(now + OIDC_LOGIN_TTL_SECONDS * 1000),
    },
    new Date(now),
  )
  return client.buildAuthorizationUrl(cfg, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: OIDC_SCOPES,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  })
}

/** Where a login reports its result: known once its stored login is found. */
export interface LoginTarget {
  mode: OidcMode | null
  returnTo: string
}

/**
 * Completes a login from the provider's callback: takes the stored login (once, this browser's,
 * unexpired; `target` learns its mode and return path), trades the code for tokens and signs
 * the identity in. Whatever fails is an OidcFailure or the provider client's error.
 */
export async function completeLogin(
  flow: OidcFlow,
  callback: {
    state: string | undefined
    error: string | undefined
    browser: string | undefined
    search: string
  },
  target: LoginTarget,
): Promise<UserRow> {
  if (!flow.settings) {
    throw new OidcFailure('oidc_unavailable', 'OpenID Connect is not configured')
  }
  const { state, browser } = callback
  const login =
    state && browser && BROWSER_ID.test(browser)
      ? await takeLogin(flow.db, sha256(state), sha256(browser), new Date())
      : null
  if (!login) {
    throw new OidcFailure('oidc_state_invalid', 'Unknown, expired, used or foreign state')
  }
  target.mode = login.mode
  target.returnTo = login.returnTo
  if (callback.error) {
    throw new OidcFailure(
      callback.error === 'access_denied' ? 'oidc_denied' : 'oidc_failed',
      `The provider answered ${callback.error}`,
    )
  }
  const { cfg, redirectUri } = await configuration(flow)
  const current = new URL(redirectUri)
  current.search = callback.search
  const tokens = await client.authorizationCodeGrant(cfg, current, {
    pkceCodeVerifier: login.codeVerifier,
    expectedState: state,
    expectedNonce: login.nonce,
    idTokenExpected: true,
  })
  const profile = await profileOf(cfg, tokens)
  const admin =
    profile.emailVerified &&
    profile.email !== null &&
    flow.adminEmails.has(profile.email.toLowerCase())
  return signInWithIdentity(flow.db, profile, admin)
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
