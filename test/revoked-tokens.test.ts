// An access token outlives neither its account nor its sign-out: after `DELETE /api/account` or
// `POST /api/auth/sign-out`, every service refuses a write with the old token (issue [23], item 5).
// The services run as in production: on ports of their own, each verifying tokens itself against
// the auth service's published keys and asking the auth service whether a token was revoked.
import { createServer } from 'node:net'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { sql } from 'drizzle-orm'
import { createApp } from '@crv/kit'
import type { BaseConfig } from '@crv/kit'
import { createDatabase, createPool } from '@crv/kit/db'
import { testDatabaseUrl, testEnv } from '@crv/kit/testing'
import authApp from '../services/auth/src/app.ts'
import { loadAuthConfig } from '../services/auth/src/config.ts'
import { post, signIn } from '../services/auth/test/helpers.ts'
import descriptorsApp from '../services/descriptors/src/app.ts'
import { loadDescriptorsConfig } from '../services/descriptors/src/config.ts'
import mediaApp from '../services/media/src/app.ts'
import { loadMediaConfig } from '../services/media/src/config.ts'
import aiApp from '../services/ai/src/app.ts'
import { loadAiConfig } from '../services/ai/src/config.ts'
import practiceApp from '../services/practice/src/app.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'

type Plugin = FastifyPluginAsync<{ config: BaseConfig }>
type Loader = (env: NodeJS.ProcessEnv) => BaseConfig

const pool = createPool({ url: testDatabaseUrl(), max: 2 })
const db = createDatabase(pool)
const apps: Record<string, FastifyInstance> = {}
let auth: FastifyInstance

/** A port nobody listens on yet: the services need the auth service's address before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function start(plugin: Plugin, load: Loader, env: Record<string, string>) {
  const config = load(testEnv({ DATABASE_URL: testDatabaseUrl(), ...env }))
  const app = createApp(config)
  await app.register(plugin, { config })
  const url = await app.listen({ port: Number(env.PORT ?? 0), host: '127.0.0.1' })
  return { app, url }
}

beforeAll(async () => {
  const authPort = await freePort()
  const authUrl = `http://127.0.0.1:${authPort}`
  // No cached answer may hide a revocation in this suite (docs/security.md names the window).
  const shared = {
    AUTH_JWKS_URL: `${authUrl}/api/auth/jwks.json`,
    AUTH_REVOCATION_CACHE_MS: '0',
  }
  const urls: Record<string, string> = {}
  for (const [name, plugin, load, env] of [
    ['descriptors', descriptorsApp, loadDescriptorsConfig, {}],
    ['media', mediaApp, loadMediaConfig, {}],
    ['ai', aiApp, loadAiConfig, {}],
    ['practice', practiceApp, loadPracticeConfig, { ASTRO_URL: 'http://127.0.0.1:9' }],
  ] as const) {
    const started = await start(plugin as Plugin, load as Loader, { ...shared, ...env })
    apps[name] = started.app
    urls[`${name.toUpperCase()}_URL`] = started.url
  }
  auth = (
    await start(authApp as Plugin, loadAuthConfig as Loader, {
      ...urls,
      PORT: String(authPort),
    })
  ).app
  apps.auth = auth
}, 60_000)
afterAll(async () => {
  await Promise.all(Object.values(apps).map((a) => a.close()))
  await pool.end()
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

function service(name: string): FastifyInstance {
  const app = apps[name]
  if (!app) throw new Error(`no ${name} service`)
  return app
}

async function perceptionId(token: string): Promise<number> {
  const res = await service('descriptors').inject({
    url: '/api/perceptions?language=en',
    headers: bearer(token),
  })
  const found = (res.json() as { id: number; name: string }[]).find((p) => p.name === 'Textures')
  if (!found) throw new Error('no Textures perception')
  return found.id
}

/** One write of each service with writing routes, as the signed-in user would make it. */
function writes(token: string, perception: number) {
  const as = (
    app: FastifyInstance,
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload: object,
  ) => app.inject({ method, url, headers: bearer(token), payload })
  return {
    descriptors: () =>
      as(service('descriptors'), 'POST', '/api/descriptors', {
        word: `Widerruf${randomUUID().slice(0, 6)}`,
        language: 'de',
        perceptionId: perception,
      }),
    history: () =>
      as(service('descriptors'), 'POST', '/api/history/sessions', {
        id: randomUUID(),
        activity: 'ideogram',
        startedAt: new Date(Date.now() - 600_000).toISOString(),
        durationMs: 300_000,
        speeds: ['normal'],
        gestalts: ['land'],
      }),
    media: () => as(service('media'), 'POST', '/api/generate-audio', { word: 'Leuchtturm' }),
    ai: () => as(service('ai'), 'POST', '/api/ai/speech', { word: 'Wasser', language: 'de' }),
    practice: () => as(service('practice'), 'POST', '/api/practice/sessions', {}),
    auth: () =>
      auth.inject({
        method: 'POST',
        url: '/api/auth/phone/start',
        headers: bearer(token),
        payload: { phone: '+15559990000' },
      }),
  }
}

/** What the user owns in every schema that a write above could add to. */
async function rowsOf(id: string) {
  const count = async (query: ReturnType<typeof sql>) =>
    Number(((await db.execute(query)).rows[0] as { n: string | number }).n)
  return {
    users: await count(sql`SELECT count(*) AS n FROM auth.users WHERE id = ${id}`),
    customWords: await count(
      sql`SELECT count(*) AS n FROM descriptors.descriptors WHERE created_by = ${id}`,
    ),
    sessions: await count(
      sql`SELECT count(*) AS n FROM descriptors.training_sessions WHERE user_id = ${id}`,
    ),
    customGestalts: await count(
      sql`SELECT count(*) AS n FROM media.custom_words WHERE user_id = ${id}`,
    ),
    practice: await count(sql`SELECT count(*) AS n FROM practice.sessions WHERE user_id = ${id}`),
  }
}

async function expectEveryWriteRefused(token: string, perception: number) {
  for (const [name, write] of Object.entries(writes(token, perception))) {
    const res = await write()
    expect(res.statusCode, `${name}: ${res.body}`).toBe(401)
    expect(res.json(), name).toEqual({
      error: { code: 'unauthorized', message: expect.any(String) },
    })
  }
}

/** A real account whose token has written to every service once (so any cache holds it). */
async function signedInUser() {
  const me = await signIn(auth)
  const id = me.user.id as string
  const perception = await perceptionId(me.accessToken)
  const w = writes(me.accessToken, perception)
  expect((await w.descriptors()).statusCode).toBe(201)
  expect((await w.practice()).statusCode).toBe(201)
  return { ...me, id, perception }
}

describe('a token after its account was deleted', () => {
  it('is refused by every service on every kind of write, and nothing is stored', async () => {
    const me = await signedInUser()
    const deleted = await auth.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(me.accessToken),
    })
    expect(deleted.statusCode, deleted.body).toBe(204)

    await expectEveryWriteRefused(me.accessToken, me.perception)
    expect(await rowsOf(me.id)).toEqual({
      users: 0,
      customWords: 0,
      sessions: 0,
      customGestalts: 0,
      practice: 0,
    })
    // Asking again (a retry after a lost answer) still finds nothing left to do.
    const again = await auth.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(me.accessToken),
    })
    expect(again.statusCode).toBe(204)
  })
})

describe('a token after its session was signed out', () => {
  it('is refused by every service on every kind of write, and nothing more is stored', async () => {
    const me = await signedInUser()
    const before = await rowsOf(me.id)
    const out = await post(auth, '/api/auth/sign-out', undefined, {
      cookie: `crv_refresh=${me.cookie}`,
    })
    expect(out.statusCode).toBe(204)

    await expectEveryWriteRefused(me.accessToken, me.perception)
    // The signed-out token cannot delete the account either.
    const deleted = await auth.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(me.accessToken),
    })
    expect(deleted.statusCode).toBe(401)
    expect(await rowsOf(me.id)).toEqual(before)
  })

  it('leaves the same user’s other sessions writing', async () => {
    const me = await signedInUser()
    const other = await signIn(auth, me.phone)
    const out = await post(auth, '/api/auth/sign-out', undefined, {
      cookie: `crv_refresh=${me.cookie}`,
    })
    expect(out.statusCode).toBe(204)
    const res = await writes(other.accessToken, me.perception).descriptors()
    expect(res.statusCode, res.body).toBe(201)
  })
})
