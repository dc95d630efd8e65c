// Social sign-in against a real OpenID Connect provider (oidc-provider) started here: the auth
// app listens on 127.0.0.1 so the provider can send the browser back to it, and a small cookie
// jar plays the browser over HTTP.
import { createHash, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import authApp from '../src/app.ts'
import { loadAuthConfig } from '../src/config.ts'
import { GOOGLE_ISSUER, OIDC_BROWSER_COOKIE, oidcSettings, safeReturnTo } from '../src/oidc/oidc.ts'
import { oidcLogins } from '../src/db/schema.ts'
import { REFRESH_COOKIE } from '../src/sessions/replies.ts'
import {
  freePort,
  pageResult,
  reachCallback,
  startTestProvider,
  TestBrowser,
} from './oidc-provider.ts'
import type { ProviderAction, TestProvider } from './oidc-provider.ts'

const CLIENT_ID = 'crv-training-test'
const CLIENT_SECRET = 'a-test-client-secret'
const CALLBACK = '/api/auth/oidc/callback'
const run = randomUUID().slice(0, 8)

const account = (login: string, name: string, email: string, emailVerified = true) => ({
  login: `${login}-${run}`,
  email: `${login}-${run}@${email}`,
  claims: {
    email: `${login}-${run}@${email}`,
    email_verified: emailVerified,
    name,
    given_name: name.split(' ')[0],
    picture: `https://pictures.example.test/${login}.png`,
  },
})
const alice = account('alice', 'Alice Liddell', 'example.test')
const bob = account('bob', 'Bob Marley', 'example.test')
const root = account('root', 'Ruth Root', 'Example.TEST')
const mallory = account('mallory', 'Mallory Mal', 'example.test', false)
const accounts = Object.fromEntries([alice, bob, root, mallory].map((a) => [a.login, a.claims]))

interface Running {
  app: FastifyInstance
  url: string
  provider: TestProvider
}

/** A provider and the auth app configured for it, listening on 127.0.0.1. */
async function startPair(
  env: Record<string, string> = {},
  providerOptions: {
    claimsInIdToken?: boolean
    tokenEndpointAuthMethod?: 'client_secret_post'
  } = {},
): Promise<Running> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const provider = await startTestProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${url}${CALLBACK}`,
    accounts,
    ...providerOptions,
  })
  const { app } = await buildTestService(authApp, loadAuthConfig, {
    DATABASE_URL: testDatabaseUrl(),
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    PUBLIC_URL: url,
    ...env,
  })
  await app.listen({ host: '127.0.0.1', port })
  return { app, url, provider }
}

async function stopPair(pair: Running | undefined) {
  await pair?.app.close()
  await pair?.provider.close()
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url')

describe('social sign-in (OpenID Connect)', () => {
  let pair: Running
  const start = (query: string) => `${pair.url}/api/auth/oidc/start?${query}`
  const callbackUrl = () => `${pair.url}${CALLBACK}`
  const toCallback = (browser: TestBrowser, query: string, action: ProviderAction) =>
    reachCallback(browser, start(query), callbackUrl(), action)

  async function expectPage(res: Response) {
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = await res.text()
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<script src="/auth-callback.js"></script>')
    // No inline script: the gateway's CSP allows scripts from 'self' only.
    expect(html.match(/<script/g)).toHaveLength(1)
    return pageResult(html)
  }

  async function refresh(browser: TestBrowser) {
    const res = await browser.fetch(`${pair.url}/api/auth/refresh`, { method: 'POST' })
    expect(res.status).toBe(200)
    return (await res.json()) as {
      accessToken: string
      user: { id: string; displayName: string; firstName: string; email: string | null }
    } & { user: { photoUrl: string | null; role: string } }
  }

  async function signInPopup(login: string) {
    const browser = new TestBrowser()
    const res = await browser.fetch(await toCallback(browser, 'mode=popup', { login }))
    expect(await expectPage(res)).toEqual({ ok: true })
    return { browser, session: await refresh(browser) }
  }

  beforeAll(async () => {
    pair = await startPair({ ADMIN_EMAILS: `someone@example.test, ${root.email.toLowerCase()}` })
  })
  afterAll(() => stopPair(pair))

  it('starts with a redirect to the provider: code flow, PKCE S256, state, nonce, scopes', async () => {
    const browser = new TestBrowser()
    const res = await browser.fetch(start('mode=popup'))
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.origin).toBe(pair.provider.issuer)
    const params = Object.fromEntries(location.searchParams)
    expect(params).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: callbackUrl(),
      scope: 'openid profile email',
      code_challenge_method: 'S256',
    })
    expect(params.state).toMatch(/^[\w-]{20,}$/)
    expect(params.nonce).toMatch(/^[\w-]{20,}$/)
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/)
    const cookie = browser.cookie(OIDC_BROWSER_COOKIE)
    expect(cookie).toMatchObject({ path: '/api/auth/oidc', httpOnly: true })
    // The state is stored hashed, bound to this browser, for ten minutes.
    const [row] = await pair.app.db
      .select()
      .from(oidcLogins)
      .where(eq(oidcLogins.stateHash, sha256(params.state ?? '')))
    expect(row).toMatchObject({ browserHash: sha256(cookie?.value ?? ''), mode: 'popup' })
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now()
    expect(ttl).toBeGreaterThan(590_000)
    expect(ttl).toBeLessThanOrEqual(600_000)
  })

  it('signs in through a popup: the page reports ok and the refresh cookie holds the session', async () => {
    const { browser, session } = await signInPopup(alice.login)
    expect(browser.cookie(REFRESH_COOKIE)).toMatchObject({ path: '/api/auth', httpOnly: true })
    expect(session.accessToken).toEqual(expect.any(String))
    expect(session.user).toMatchObject({
      displayName: 'Alice Liddell',
      firstName: 'Alice',
      email: alice.email,
      photoUrl: 'https://pictures.example.test/alice.png',
      role: 'user',
    })
  })

  it('signs in by redirect, back to the returnTo path', async () => {
    const browser = new TestBrowser()
    const url = await toCallback(browser, 'mode=redirect&returnTo=%2Ftrainer%3Fstage%3D2', {
      login: bob.login,
    })
    const res = await browser.fetch(url)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/trainer?stage=2')
    expect((await refresh(browser)).user).toMatchObject({
      displayName: 'Bob Marley',
      email: bob.email,
    })
  })

  it('gives the same user for the same identity, every time', async () => {
    const first = await signInPopup(bob.login)
    const second = await signInPopup(bob.login)
    expect(second.session.user.id).toBe(first.session.user.id)
  })

  it('makes an administrator of a verified e-mail in ADMIN_EMAILS (any case), no one else', async () => {
    const admin = await signInPopup(root.login)
    expect(admin.session.user).toMatchObject({ role: 'admin', firstName: 'Ruth' })
    // The same address, unverified, is not trusted: neither for the role nor as the e-mail.
    const unverified = await startPair(
      { ADMIN_EMAILS: mallory.email },
      { claimsInIdToken: true },
    ).then(async (other) => {
      try {
        const browser = new TestBrowser()
        const url = await reachCallback(
          browser,
          `${other.url}/api/auth/oidc/start?mode=redirect`,
          `${other.url}${CALLBACK}`,
          { login: mallory.login },
        )
        expect((await browser.fetch(url)).status).toBe(302)
        const res = await browser.fetch(`${other.url}/api/auth/refresh`, { method: 'POST' })
        return (await res.json()) as { user: { role: string; email: string | null } }
      } finally {
        await stopPair(other)
      }
    })
    expect(unverified.user).toMatchObject({ role: 'user', email: null })
  })

  it('refuses a replayed callback', async () => {
    const browser = new TestBrowser()
    const url = await toCallback(browser, 'mode=popup', { login: alice.login })
    expect(await expectPage(await browser.fetch(url))).toEqual({ ok: true })
    expect(await expectPage(await browser.fetch(url))).toEqual({
      ok: false,
      code: 'oidc_state_invalid',
    })
  })

  it('refuses a tampered state (and the real one still works)', async () => {
    const browser = new TestBrowser()
    const url = new URL(
      await toCallback(browser, 'mode=redirect&returnTo=/home', { login: alice.login }),
    )
    const state = url.searchParams.get('state') ?? ''
    const tampered = new URL(url)
    tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`)
    // Unknown state, unknown mode: the page (which goes to /?authError=… without an opener).
    expect(await expectPage(await browser.fetch(tampered.href))).toEqual({
      ok: false,
      code: 'oidc_state_invalid',
    })
    const res = await browser.fetch(url.href)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/home')
  })

  it('refuses a callback from another browser than the one that started', async () => {
    const victim = new TestBrowser()
    const url = await toCallback(victim, 'mode=popup', { login: alice.login })
    const attacker = new TestBrowser()
    expect(await expectPage(await attacker.fetch(url))).toEqual({
      ok: false,
      code: 'oidc_state_invalid',
    })
    expect(attacker.cookie(REFRESH_COOKIE)).toBeUndefined()
    // A forged browser cookie does not help either.
    const forger = new TestBrowser()
    await forger.fetch(start('mode=popup'))
    expect(await expectPage(await forger.fetch(url))).toMatchObject({ code: 'oidc_state_invalid' })
    expect(await expectPage(await victim.fetch(url))).toEqual({ ok: true })
  })

  it('refuses an expired login', async () => {
    const browser = new TestBrowser()
    const url = await toCallback(browser, 'mode=popup', { login: alice.login })
    const browserHash = sha256(browser.cookie(OIDC_BROWSER_COOKIE)?.value ?? '')
    await pair.app.db
      .update(oidcLogins)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oidcLogins.browserHash, browserHash))
    expect(await expectPage(await browser.fetch(url))).toEqual({
      ok: false,
      code: 'oidc_state_invalid',
    })
  })

  it('reports a cancelled sign-in as oidc_denied, in both modes', async () => {
    const popup = new TestBrowser()
    const url = await toCallback(popup, 'mode=popup', 'cancel')
    expect(new URL(url).searchParams.get('error')).toBe('access_denied')
    expect(await expectPage(await popup.fetch(url))).toEqual({ ok: false, code: 'oidc_denied' })
    expect(popup.cookie(REFRESH_COOKIE)).toBeUndefined()

    const tab = new TestBrowser()
    const res = await tab.fetch(
      await toCallback(tab, 'mode=redirect&returnTo=/ideogram?x=1', 'cancel'),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/ideogram?x=1&authError=oidc_denied')
  })

  it('fails with oidc_failed when the ID token does not pass its checks (nonce)', async () => {
    const browser = new TestBrowser()
    const url = await toCallback(browser, 'mode=redirect', { login: alice.login })
    await pair.app.db
      .update(oidcLogins)
      .set({ nonce: 'not-the-nonce-that-was-sent' })
      .where(eq(oidcLogins.browserHash, sha256(browser.cookie(OIDC_BROWSER_COOKIE)?.value ?? '')))
    const res = await browser.fetch(url)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/?authError=oidc_failed')
    expect(browser.cookie(REFRESH_COOKIE)).toBeUndefined()
  })

  it('fails with oidc_failed when the token exchange is refused (PKCE verifier)', async () => {
    const browser = new TestBrowser()
    const url = await toCallback(browser, 'mode=popup', { login: alice.login })
    await pair.app.db
      .update(oidcLogins)
      .set({ codeVerifier: 'x'.repeat(43) })
      .where(eq(oidcLogins.browserHash, sha256(browser.cookie(OIDC_BROWSER_COOKIE)?.value ?? '')))
    const res = await browser.fetch(url)
    // Never internals in the page: only ok and the code.
    expect(await expectPage(res)).toEqual({ ok: false, code: 'oidc_failed' })
  })

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'evil',
    '/a b',
    '/.//evil.example/phish',
    '/%2e%2e//evil.example',
  ])('returns to / instead of the returnTo %s', async (returnTo) => {
    const ok = new TestBrowser()
    const query = `mode=redirect&returnTo=${encodeURIComponent(returnTo)}`
    const res = await ok.fetch(await toCallback(ok, query, { login: alice.login }))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')

    const cancelled = new TestBrowser()
    const denied = await cancelled.fetch(await toCallback(cancelled, query, 'cancel'))
    expect(denied.headers.get('location')).toBe('/?authError=oidc_denied')
  })

  it('rejects a callback without state', async () => {
    const res = await new TestBrowser().fetch(`${callbackUrl()}?code=abc`)
    expect(await expectPage(res)).toEqual({ ok: false, code: 'oidc_state_invalid' })
  })
})

describe('social sign-in with claims only in UserInfo and client_secret_post', () => {
  let pair: Running
  beforeAll(async () => {
    pair = await startPair(
      {},
      { claimsInIdToken: false, tokenEndpointAuthMethod: 'client_secret_post' },
    )
  })
  afterAll(() => stopPair(pair))

  it('reads the profile from UserInfo when the ID token lacks it', async () => {
    const browser = new TestBrowser()
    const url = await reachCallback(
      browser,
      `${pair.url}/api/auth/oidc/start?mode=redirect`,
      `${pair.url}${CALLBACK}`,
      { login: alice.login },
    )
    const res = await browser.fetch(url)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    const refreshed = await browser.fetch(`${pair.url}/api/auth/refresh`, { method: 'POST' })
    expect(((await refreshed.json()) as { user: unknown }).user).toMatchObject({
      displayName: 'Alice Liddell',
      email: alice.email,
    })
  })
})

describe('social sign-in unavailable', () => {
  let unconfigured: FastifyInstance
  let unreachable: FastifyInstance
  beforeAll(async () => {
    unconfigured = (
      await buildTestService(authApp, loadAuthConfig, { DATABASE_URL: testDatabaseUrl() })
    ).app
    // A provider that is down: nothing listens on this port.
    unreachable = (
      await buildTestService(authApp, loadAuthConfig, {
        DATABASE_URL: testDatabaseUrl(),
        OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
      })
    ).app
  })
  afterAll(async () => {
    await unconfigured?.close()
    await unreachable?.close()
  })

  const page = (body: string) => pageResult(body)

  it.each([
    ['not configured', () => unconfigured],
    ['unreachable', () => unreachable],
  ])('answers oidc_unavailable when the provider is %s', async (_what, app) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const popup = await app().inject('/api/auth/oidc/start?mode=popup')
      expect(popup.statusCode).toBe(200)
      expect(popup.headers['content-type']).toMatch(/^text\/html/)
      expect(page(popup.body)).toEqual({ ok: false, code: 'oidc_unavailable' })

      const redirect = await app().inject('/api/auth/oidc/start?mode=redirect&returnTo=/trainer')
      expect(redirect.statusCode).toBe(302)
      expect(redirect.headers.location).toBe('/trainer?authError=oidc_unavailable')
    }
    // The service itself is fine.
    expect((await app().inject('/ready')).statusCode).toBe(200)
  })

  it('answers the callback with oidc_unavailable when not configured', async () => {
    const res = await unconfigured.inject(`${CALLBACK}?code=abc&state=def`)
    expect(res.statusCode).toBe(200)
    expect(page(res.body)).toEqual({ ok: false, code: 'oidc_unavailable' })
  })
})

describe('social sign-in settings', () => {
  const base = { DATABASE_URL: 'postgres://x@localhost/x', NODE_ENV: 'test' }

  it('is off without a client id and secret', () => {
    expect(oidcSettings(loadAuthConfig(base))).toBeNull()
  })

  it('uses Google when only the client id and secret are set', () => {
    const settings = oidcSettings(
      loadAuthConfig({
        ...base,
        OIDC_CLIENT_ID: 'id',
        OIDC_CLIENT_SECRET: 'secret',
        PUBLIC_URL: 'https://crv.example',
      }),
    )
    expect(settings?.issuer.href).toBe(`${GOOGLE_ISSUER}/`)
    expect(settings?.redirectUri).toBe('https://crv.example/api/auth/oidc/callback')
  })

  it.each([
    ['/', '/'],
    ['/trainer?stage=2#top', '/trainer?stage=2#top'],
    ['/a/../b', '/b'],
    ['https://evil.example/x', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/x\\y', '/'],
    ['/\t/evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['', '/'],
    [undefined, '/'],
    [`/${'a'.repeat(600)}`, '/'],
    // Paths that only become another site once the URL parser normalises them.
    ['/.//evil.example/phish', '/'],
    ['/%2e%2e//evil.example', '/'],
    ['/%2E%2E//evil.example/x?y#z', '/'],
    ['/a/..//evil.example', '/'],
    ['/././/evil.example', '/'],
    ['/a/.//b', '/a//b'],
  ])('keeps %j as the return path %j', (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected)
  })
})
