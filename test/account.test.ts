// A user's account across the services: the export gathers every service's part, and deleting
// the account leaves nothing of theirs in any schema, while another user's data stays. Each
// service runs as it does in production, on a port of its own, with one key set for all.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { sql } from 'drizzle-orm'
import type { BaseConfig, TokenVerifier } from '@crv/kit'
import { createDatabase, createPool } from '@crv/kit/db'
import { buildTestService, createTestKeys, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import authApp from '../services/auth/src/app.ts'
import { loadAuthConfig } from '../services/auth/src/config.ts'
import { post, signIn } from '../services/auth/test/helpers.ts'
import descriptorsApp from '../services/descriptors/src/app.ts'
import { loadDescriptorsConfig } from '../services/descriptors/src/config.ts'
import mediaApp from '../services/media/src/app.ts'
import { loadMediaConfig } from '../services/media/src/config.ts'
import practiceApp from '../services/practice/src/app.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'

type Plugin = FastifyPluginAsync<{ config: BaseConfig; verifyToken?: TokenVerifier }>
type Loader = (env: NodeJS.ProcessEnv) => BaseConfig

let keys: TestKeys
let auth: FastifyInstance
let descriptors: FastifyInstance
let media: FastifyInstance
let practice: FastifyInstance
const pool = createPool({ url: testDatabaseUrl(), max: 2 })
const db = createDatabase(pool)
let urls: Record<string, string>

async function listening(plugin: Plugin, load: Loader, env: Record<string, string> = {}) {
  const { app } = await buildTestService(
    plugin,
    load,
    { DATABASE_URL: testDatabaseUrl(), ...env },
    keys,
  )
  return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) }
}

async function buildAuth(partUrls: Record<string, string>) {
  return (
    await buildTestService(
      authApp as Plugin,
      loadAuthConfig as Loader,
      { DATABASE_URL: testDatabaseUrl(), ...partUrls },
      keys,
    )
  ).app
}

beforeAll(async () => {
  keys = await createTestKeys()
  const d = await listening(descriptorsApp as Plugin, loadDescriptorsConfig as Loader)
  const m = await listening(mediaApp as Plugin, loadMediaConfig as Loader)
  const p = await listening(practiceApp as Plugin, loadPracticeConfig as Loader, {
    ASTRO_URL: 'http://127.0.0.1:9',
  })
  descriptors = d.app
  media = m.app
  practice = p.app
  urls = { DESCRIPTORS_URL: d.url, MEDIA_URL: m.url, PRACTICE_URL: p.url }
  auth = await buildAuth(urls)
}, 60_000)
afterAll(async () => {
  await Promise.all([auth, descriptors, media, practice].map((a) => a?.close()))
  await pool.end()
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  token: string,
  payload?: object,
) {
  return app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
}

/** A signed-in user (a real account in the auth service) with data in every service. */
async function userWithData() {
  const signedIn = await signIn(auth)
  const id = signedIn.user.id as string
  const token = await keys.tokenFor('user', id)
  const perceptions = (
    await call(descriptors, 'GET', '/api/perceptions?language=en', token)
  ).json() as {
    id: number
    name: string
  }[]
  const textures = perceptions.find((p) => p.name === 'Textures')?.id
  const word = `Probewort${randomUUID().slice(0, 6)}`
  const added = await call(descriptors, 'POST', '/api/descriptors', token, {
    word,
    language: 'de',
    perceptionId: textures,
  })
  expect(added.statusCode, added.body).toBe(201)
  const bulk = (await call(descriptors, 'GET', '/api/descriptors/bulk?language=de', token)).json()
  const someWord = bulk.byPerception.find((g: { categoryId: number }) => g.categoryId === textures)
    .descriptorIds[0] as number
  expect(
    (await call(descriptors, 'POST', `/api/descriptors/${someWord}/toggle-hide`, token)).statusCode,
  ).toBe(200)
  const answered = await call(descriptors, 'POST', '/api/reviews', token, {
    answers: [
      {
        id: randomUUID(),
        descriptorId: someWord,
        rating: 'good',
        answeredAt: new Date(Date.now() - 60_000).toISOString(),
        durationMs: 3000,
      },
    ],
  })
  expect(answered.statusCode, answered.body).toBe(200)
  const session = await call(descriptors, 'POST', '/api/history/sessions', token, {
    id: randomUUID(),
    activity: 'ideogram',
    startedAt: new Date(Date.now() - 600_000).toISOString(),
    durationMs: 300_000,
    speeds: ['normal'],
    gestalts: ['land'],
  })
  expect(session.statusCode, session.body).toBe(201)
  // A custom gestalt as the media service records one (its voicing is the speech service's).
  await db.execute(
    sql`INSERT INTO media.custom_words (user_id, word, word_key, object_key)
        VALUES (${id}, 'Leuchtturm', 'leuchtturm', ${`custom_audio/${id}/${randomUUID()}.mp3`})`,
  )
  const started = await call(practice, 'POST', '/api/practice/sessions', token, {})
  expect(started.statusCode, started.body).toBe(201)
  return { ...signedIn, id, token, word }
}

/** How many rows of the user's each schema still holds. */
async function rowsOf(id: string) {
  const count = async (query: ReturnType<typeof sql>) =>
    Number(((await db.execute(query)).rows[0] as { n: string | number }).n)
  return {
    users: await count(sql`SELECT count(*) AS n FROM auth.users WHERE id = ${id}`),
    refreshTokens: await count(
      sql`SELECT count(*) AS n FROM auth.refresh_tokens WHERE user_id = ${id}`,
    ),
    customWords: await count(
      sql`SELECT count(*) AS n FROM descriptors.descriptors WHERE created_by = ${id}`,
    ),
    hidden: await count(sql`SELECT count(*) AS n FROM descriptors.hidden WHERE user_id = ${id}`),
    reviewCards: await count(
      sql`SELECT count(*) AS n FROM descriptors.review_cards WHERE user_id = ${id}`,
    ),
    reviewAnswers: await count(
      sql`SELECT count(*) AS n FROM descriptors.review_answers WHERE user_id = ${id}`,
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

const everything = {
  users: 1,
  refreshTokens: 1,
  customWords: 1,
  hidden: 1,
  reviewCards: 1,
  reviewAnswers: 1,
  sessions: 1,
  customGestalts: 1,
  practice: 1,
}
const nothing = Object.fromEntries(Object.keys(everything).map((k) => [k, 0]))

describe('the account export', () => {
  it('holds the account and every service’s data of the user, and nobody else’s', async () => {
    const me = await userWithData()
    const other = await userWithData()
    const res = await call(auth, 'GET', '/api/account/export', me.token)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="crv-training-account-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    const body = res.json()
    expect(body.format).toBe('crv-training-account/1')
    expect(body.account.user.id).toBe(me.id)
    expect(body.descriptors.customWords).toEqual([
      expect.objectContaining({
        word: me.word,
        language: 'de',
        category: 'textures',
        status: 'pending',
      }),
    ])
    expect(body.descriptors.hidden).toHaveLength(1)
    expect(body.descriptors.reviewCards).toEqual([
      expect.objectContaining({ state: 'learning', reps: 1 }),
    ])
    expect(body.descriptors.reviewAnswers).toEqual([
      expect.objectContaining({ rating: 'good', durationMs: 3000 }),
    ])
    expect(body.descriptors.trainingSessions).toEqual([
      expect.objectContaining({
        activity: 'ideogram',
        durationMs: 300_000,
        details: { speeds: ['normal'], gestalts: ['land'] },
      }),
    ])
    expect(body.media.customGestalts).toEqual([expect.objectContaining({ word: 'Leuchtturm' })])
    // A session in progress is exported without its target: the export never unblinds.
    expect(body.practice.sessions).toEqual([
      expect.objectContaining({ targetId: null, judgedAt: null }),
    ])
    expect(JSON.stringify(body)).not.toContain(other.id)
    expect(JSON.stringify(body)).not.toContain(other.word)
  })
})

describe('deleting an account', () => {
  it('deletes everything the user owns in every service, ends their sessions, and leaves others alone', async () => {
    const me = await userWithData()
    const other = await userWithData()
    expect(await rowsOf(me.id)).toEqual(everything)

    const res = await call(auth, 'DELETE', '/api/account', me.token)
    expect(res.statusCode, res.body).toBe(204)
    expect(res.cookies.find((c) => c.name === 'crv_refresh')?.value ?? '').toBe('')
    expect(await rowsOf(me.id)).toEqual(nothing)
    // The refresh token cannot bring the session back.
    const refresh = await post(auth, '/api/auth/refresh', undefined, {
      cookie: `crv_refresh=${me.cookie}`,
    })
    expect(refresh.statusCode).toBe(401)
    expect((await call(auth, 'GET', '/api/auth/me', me.token)).json().error.code).toBe(
      'account_not_found',
    )
    // The positive control: the other user's data, in every service, is all there.
    expect(await rowsOf(other.id)).toEqual(everything)
    // Asked again (a retry after a lost answer), nothing fails.
    expect((await call(auth, 'DELETE', '/api/account', me.token)).statusCode).toBe(204)
  })

  it('keeps the account when a service cannot be reached, and finishes when asked again', async () => {
    const me = await userWithData()
    const closed = await listening(mediaApp as Plugin, loadMediaConfig as Loader)
    await closed.app.close()
    const broken = await buildAuth({ ...urls, MEDIA_URL: closed.url })
    try {
      const res = await call(broken, 'DELETE', '/api/account', me.token)
      expect(res.statusCode).toBe(503)
      expect(res.json().error).toEqual({
        code: 'account_part_unavailable',
        message: expect.stringContaining('media'),
      })
    } finally {
      await broken.close()
    }
    // The descriptors part went (it came first); the rest, and the account, stay.
    const left = await rowsOf(me.id)
    expect(left).toMatchObject({
      users: 1,
      refreshTokens: 1,
      customGestalts: 1,
      practice: 1,
      hidden: 0,
    })
    expect((await call(auth, 'DELETE', '/api/account', me.token)).statusCode).toBe(204)
    expect(await rowsOf(me.id)).toEqual(nothing)
  })

  it('keeps a word an administrator approved in the shared vocabulary, without its author', async () => {
    const me = await userWithData()
    // In Chinese, which no other suite's vocabulary checks read: an approved word is everyone's.
    const perceptions = (
      await call(descriptors, 'GET', '/api/perceptions?language=en', me.token)
    ).json() as { id: number; name: string }[]
    const added = await call(descriptors, 'POST', '/api/descriptors', me.token, {
      word: `探针${randomUUID().slice(0, 4)}`,
      language: 'zh',
      perceptionId: perceptions.find((p) => p.name === 'Textures')?.id,
    })
    expect(added.statusCode, added.body).toBe(201)
    const id = Number(added.json().id)
    await db.execute(sql`UPDATE descriptors.descriptors SET status = 'approved' WHERE id = ${id}`)
    try {
      expect((await call(auth, 'DELETE', '/api/account', me.token)).statusCode).toBe(204)
      const kept = (
        await db.execute(sql`SELECT created_by FROM descriptors.descriptors WHERE id = ${id}`)
      ).rows
      expect(kept).toEqual([{ created_by: null }])
    } finally {
      await db.execute(sql`
        WITH gone AS (DELETE FROM descriptors.descriptors WHERE id = ${id} RETURNING concept_id)
        DELETE FROM descriptors.concepts c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`)
    }
  })

  it('needs a signed-in caller', async () => {
    expect((await auth.inject({ method: 'DELETE', url: '/api/account' })).statusCode).toBe(401)
    expect((await auth.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(401)
  })
})
