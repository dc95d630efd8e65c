import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { ConsoleSms } from '../src/sms.ts'
import { authService, outboxCode, post, refreshCookieOf, signIn } from './helpers.ts'

let app: FastifyInstance
beforeAll(async () => {
  app = await authService()
})
afterAll(() => app.close())

const refresh = (cookie?: string) =>
  post(app, '/api/auth/refresh', undefined, cookie ? { cookie: `crv_refresh=${cookie}` } : {})
const me = (token: string) =>
  app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })

describe('sessions', () => {
  it('issues a 15-minute EdDSA access token with the user id, role and first name', async () => {
    const { accessToken, user } = await signIn(app)
    expect(decodeProtectedHeader(accessToken)).toMatchObject({
      alg: 'EdDSA',
      kid: expect.any(String),
    })
    const claims = decodeJwt(accessToken)
    expect(claims).toMatchObject({
      sub: user.id,
      role: 'user',
      name: user.firstName,
      iss: 'crv-training',
      aud: 'crv-training',
    })
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(900)
  })

  it('sets the refresh token as an httpOnly, SameSite=Lax cookie scoped to /api/auth', async () => {
    const phone = `+1555${String(Date.now()).slice(-7)}`
    await post(app, '/api/auth/phone/start', { phone })
    const sms = app.auth.sms as unknown as { outbox: { phone: string; code: string }[] }
    const code = sms.outbox.filter((m) => m.phone === phone).at(-1)?.code ?? ''
    const res = await post(app, '/api/auth/phone/verify', { phone, code })
    const cookie = res.cookies.find((c) => c.name === 'crv_refresh')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth' })
    // Served on localhost here: Secure would stop the browser from sending it over http.
    expect(cookie?.secure).toBeFalsy()
    // Beside it, a marker the page can read, with nothing in it but '1', for as long.
    const marker = res.cookies.find((c) => c.name === 'crv_session')
    expect(marker).toMatchObject({ value: '1', path: '/', sameSite: 'Lax' })
    expect(marker?.httpOnly).toBeFalsy()
    expect(marker?.maxAge).toBe(cookie?.maxAge)
  })

  it('sets the refresh cookie Secure in production, where the site is https', async () => {
    // https on this machine as well: a local name does not make a cookie over TLS less secret.
    for (const url of ['https://crv.example.org', 'https://localhost:8443']) {
      // The production SMS provider stood in for by one that keeps the codes it sends.
      const production = await authService(
        { NODE_ENV: 'production', PUBLIC_URL: url, SMS_PROVIDER: 'sns' },
        { sms: new ConsoleSms(() => undefined, true) },
      )
      try {
        // Production takes only numbers that can exist: a German mobile number.
        const phone = `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`
        await post(production, '/api/auth/phone/start', { phone })
        const code = outboxCode(production, phone)
        const res = await post(production, '/api/auth/phone/verify', { phone, code })
        expect(res.statusCode, url).toBe(200)
        const secure = (name: string) => res.cookies.find((c) => c.name === name)?.secure
        expect(secure('crv_refresh'), url).toBe(true)
        expect(secure('crv_session'), url).toBe(true)
      } finally {
        await production.close()
      }
    }
  })

  it('answers /me for the signed-in user and 401 without a token', async () => {
    const { accessToken, user } = await signIn(app)
    const res = await me(accessToken)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual(user)
    expect((await app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401)
  })

  it('keeps a user signed in across reloads by rotating the refresh token on every use', async () => {
    const { cookie, user } = await signIn(app)
    const first = await refresh(cookie)
    expect(first.statusCode).toBe(200)
    expect(first.json().user.id).toBe(user.id)
    const next = refreshCookieOf(first)
    expect(next).toBeTruthy()
    expect(next).not.toBe(cookie)
    const second = await refresh(next)
    expect(second.statusCode).toBe(200)
    expect((await me(second.json().accessToken)).json().id).toBe(user.id)
  })

  it('revokes the whole session when a rotated token is used again', async () => {
    const { cookie } = await signIn(app)
    const rotated = refreshCookieOf(await refresh(cookie))
    // Past the grace period for simultaneous tabs, the old token comes back: a thief or a replay.
    await app.pg.query(
      `UPDATE auth.refresh_tokens SET rotated_at = now() - interval '1 minute' WHERE rotated_at IS NOT NULL`,
    )
    const replay = await refresh(cookie)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().error.code).toBe('no_session')
    // …and the legitimate newer token is dead too.
    expect((await refresh(rotated)).statusCode).toBe(401)
  })

  it('keeps a user signed in when refresh replies are lost: the old token gets the same pair again', async () => {
    const { cookie, user } = await signIn(app)
    // The refresh reaches the server and rotates the token; its reply never reaches the device.
    const lost = refreshCookieOf(await refresh(cookie))
    // The device still holds the old token and tries again: the same new token comes back.
    const retried = await refresh(cookie)
    expect(retried.statusCode, retried.body).toBe(200)
    expect(refreshCookieOf(retried)).toBe(lost)
    expect((await me(retried.json().accessToken)).json().id).toBe(user.id)
    // That reply is lost too, and the page's second retry asks again: still the same pair.
    const again = await refresh(cookie)
    expect(again.statusCode, again.body).toBe(200)
    expect(refreshCookieOf(again)).toBe(lost)
    // The new token, used at last, goes on; the old one is then a copy.
    const used = await refresh(lost)
    expect(used.statusCode).toBe(200)
    expect((await refresh(cookie)).statusCode).toBe(401)
    expect((await refresh(refreshCookieOf(used))).statusCode).toBe(401)
  })

  it('gives a lost reply nothing once its new token was used: the old token is then reuse', async () => {
    const { cookie } = await signIn(app)
    const next = refreshCookieOf(await refresh(cookie))
    const later = await refresh(next)
    expect(later.statusCode).toBe(200)
    // Within the grace period still, but the device that got `next` has moved on with it.
    expect((await refresh(cookie)).statusCode).toBe(401)
    expect((await refresh(refreshCookieOf(later))).statusCode).toBe(401)
  })

  it('lets two tabs refresh with the same token at once', async () => {
    const { cookie } = await signIn(app)
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)])
    expect([a.statusCode, b.statusCode]).toEqual([200, 200])
  })

  it('signs out: the refresh token stops working and the cookie is cleared', async () => {
    const { cookie } = await signIn(app)
    const out = await post(app, '/api/auth/sign-out', undefined, {
      cookie: `crv_refresh=${cookie}`,
    })
    expect(out.statusCode).toBe(204)
    expect(out.cookies.find((c) => c.name === 'crv_refresh')?.value).toBe('')
    expect(out.cookies.find((c) => c.name === 'crv_session')?.value).toBe('')
    expect((await refresh(cookie)).statusCode).toBe(401)
  })

  it('answers 401 to a refresh without a cookie or with a made-up one', async () => {
    const bare = await refresh()
    expect(bare.statusCode).toBe(401)
    // A marker left without its session is cleared, so the page stops asking.
    expect(bare.cookies.find((c) => c.name === 'crv_session')?.value).toBe('')
    expect((await refresh('made-up-token')).statusCode).toBe(401)
  })

  it('refuses an expired refresh token', async () => {
    const { cookie } = await signIn(app)
    await app.pg.query(
      `UPDATE auth.refresh_tokens SET expires_at = now() - interval '1 second' WHERE rotated_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
    )
    expect((await refresh(cookie)).statusCode).toBe(401)
  })

  it('stores refresh tokens hashed', async () => {
    const { cookie } = await signIn(app)
    const rows = await app.pg.query(`SELECT token_hash FROM auth.refresh_tokens`)
    expect(rows.rows.map((r: { token_hash: string }) => r.token_hash)).not.toContain(cookie)
  })
})

describe('signing keys', () => {
  it('publishes a JWKS that verifies the tokens it issues, with key ids', async () => {
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    const { accessToken } = await signIn(app)
    const jwks = (await app.inject('/api/auth/jwks.json')).json()
    expect(jwks.keys[0]).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
      use: 'sig',
      kid: expect.any(String),
    })
    expect(jwks.keys[0].d).toBeUndefined()
    const verified = await jwtVerify(
      accessToken,
      createRemoteJWKSet(new URL(`${base}/api/auth/jwks.json`)),
    )
    expect(verified.payload.sub).toBeTruthy()
  })

  it('keeps the generated key across restarts of the same data directory', async () => {
    const dir = app.auth.config.DATA_DIR
    const again = await authService({ DATA_DIR: dir })
    expect((await again.inject('/api/auth/jwks.json')).json()).toEqual(
      (await app.inject('/api/auth/jwks.json')).json(),
    )
    await again.close()
  })

  it('takes its keys from AUTH_KEYS, publishing all and signing with the first', async () => {
    const { exportJWK, generateKeyPair } = await import('jose')
    const make = async (kid: string) => ({
      ...(await exportJWK((await generateKeyPair('EdDSA', { extractable: true })).privateKey)),
      kid,
    })
    const keys = [await make('new-key'), await make('old-key')]
    const rotated = await authService({ AUTH_KEYS: JSON.stringify(keys) })
    const jwks = (await rotated.inject('/api/auth/jwks.json')).json()
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(['new-key', 'old-key'])
    const { accessToken } = await signIn(rotated)
    expect(decodeProtectedHeader(accessToken).kid).toBe('new-key')
    await rotated.close()
  })

  it('refuses to start with malformed AUTH_KEYS, naming the variable', async () => {
    await expect(authService({ AUTH_KEYS: '{"kty":"RSA"}' })).rejects.toThrow(/AUTH_KEYS/)
  })
})

describe('sign-in options', () => {
  it('offers phone only when no OpenID provider is configured', async () => {
    expect((await app.inject('/api/auth/options')).json()).toEqual({
      socialSignIn: { enabled: false, providerName: null },
      botCheck: { kind: 'none', siteKey: null },
    })
  })

  it('names Google when only its client id and secret are set, and publishes the bot check site key', async () => {
    const google = await authService({
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      BOT_CHECK: 'turnstile',
      BOT_CHECK_SECRET: 'server-secret',
      BOT_CHECK_SITE_KEY: '0x4AAAAAAA',
    })
    const options = (await google.inject('/api/auth/options')).json()
    expect(options).toEqual({
      socialSignIn: { enabled: true, providerName: 'Google' },
      botCheck: { kind: 'turnstile', siteKey: '0x4AAAAAAA' },
    })
    expect(JSON.stringify(options)).not.toContain('server-secret')
    await google.close()
  })
})
