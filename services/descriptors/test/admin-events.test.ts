import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import descriptorsApp from '../src/app.ts'
import { EventRateLimiter, pruneEvents } from '../src/analytics/analytics.ts'
import { loadDescriptorsConfig } from '../src/config.ts'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

let h: Harness
let userToken: string
let adminToken: string

beforeAll(async () => {
  h = await harness()
  userToken = await h.keys.tokenFor('user', `u-${randomUUID()}`)
  adminToken = await h.keys.tokenFor('admin')
})
afterAll(() => h.app.close())

const path = () => `/test-${randomUUID().slice(0, 8)}`
const send = (app: FastifyInstance, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/events', payload, headers })
const storedAt = async (p: string) =>
  (
    await h.app.pg.query(
      'SELECT name, path, user_id, props FROM descriptors.analytics_events WHERE path = $1 ORDER BY id',
      [p],
    )
  ).rows as { name: string; path: string; user_id: string | null; props: object }[]

describe('recording events', () => {
  it('stores a visitor’s page views without a user id and without the query', async () => {
    const p = path()
    const res = await send(h.app, {
      events: [
        { name: 'page_view', path: `${p}?phone=123#x`, at: new Date().toISOString() },
        { name: 'page_view', path: p },
      ],
    })
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({ accepted: 2 })
    const rows = await storedAt(p)
    expect(rows).toHaveLength(2)
    expect(rows.every((r) => r.user_id === null && r.path === p)).toBe(true)
  })

  it('takes the user id from a verified token in the body (sendBeacon) or the header', async () => {
    const p = path()
    await send(h.app, { events: [{ name: 'page_view', path: p }], accessToken: userToken })
    await send(
      h.app,
      {
        events: [
          { name: 'tachistoscope_start', path: p, props: { category: 'people', exposureMs: 5000 } },
        ],
      },
      {
        authorization: `Bearer ${userToken}`,
      },
    )
    const rows = await storedAt(p)
    const sub = JSON.parse(Buffer.from(userToken.split('.')[1] ?? '', 'base64url').toString()).sub
    expect(rows.map((r) => r.user_id)).toEqual([sub, sub])
    expect(rows[1]?.props).toEqual({ category: 'people', exposureMs: 5000 })
  })

  it('records a forged or expired body token as anonymous', async () => {
    const p = path()
    const expired = await h.keys.sign(
      { role: 'user' },
      { expiresIn: Math.floor(Date.now() / 1000) - 60 },
    )
    for (const accessToken of ['not-a-token', expired]) {
      const res = await send(h.app, { events: [{ name: 'page_view', path: p }], accessToken })
      expect(res.statusCode).toBe(202)
    }
    expect((await storedAt(p)).map((r) => r.user_id)).toEqual([null, null])
  })

  it('refuses unknown events, too many events, big properties and foreign paths', async () => {
    const bad = [
      { events: [] },
      { events: [{ name: 'purchase', path: '/' }] },
      { events: Array.from({ length: 51 }, () => ({ name: 'page_view', path: '/' })) },
      { events: [{ name: 'page_view', path: 'https://elsewhere.example/' }] },
      { events: [{ name: 'page_view', path: '/', props: { note: 'x'.repeat(101) } }] },
      { events: [{ name: 'page_view', path: '/', props: { nested: { a: 1 } } }] },
      { events: [{ name: 'page_view', path: '/', email: 'a@b.c' }] },
    ]
    for (const payload of bad) {
      const res = await send(h.app, payload)
      expect(res.statusCode).toBe(400)
      expect(res.json().error.code).toBeTruthy()
    }
    const huge = await send(h.app, {
      events: [{ name: 'page_view', path: '/' }],
      accessToken: 'x'.repeat(20_000),
    })
    expect(huge.statusCode).toBe(413)
  })
})

describe('limits and forwarding', () => {
  let app: FastifyInstance
  let standIn: FastifyInstance
  const received: { url: string; body: Record<string, unknown>; ua: string | undefined }[] = []

  beforeAll(async () => {
    standIn = Fastify()
    standIn.post('/api/event', async (request, reply) => {
      received.push({
        url: request.url,
        body: request.body as Record<string, unknown>,
        ua: request.headers['user-agent'],
      })
      return reply.code(202).send('ok')
    })
    const address = await standIn.listen({ port: 0, host: '127.0.0.1' })
    app = (
      await buildTestService(descriptorsApp, loadDescriptorsConfig, {
        DATABASE_URL: testDatabaseUrl(),
        EVENTS_PER_MINUTE: '3',
        ANALYTICS_PROVIDER: 'plausible',
        ANALYTICS_URL: address,
        ANALYTICS_SITE: 'crv.example.org',
      })
    ).app
  })
  afterAll(async () => {
    await app.close()
    await standIn.close()
  })

  it('forwards events to Plausible without the user id, then rate-limits the sender', async () => {
    const p = path()
    const first = await send(
      app,
      {
        events: [
          { name: 'page_view', path: p },
          { name: 'tachistoscope_complete', path: p, props: { exposureMs: 500 } },
        ],
        accessToken: userToken,
      },
      { 'user-agent': 'Browser/1.0' },
    )
    expect(first.statusCode).toBe(202)
    await vi.waitFor(() => expect(received).toHaveLength(2))
    expect(received[0]?.body).toEqual({
      name: 'pageview',
      url: `https://crv.example.org${p}`,
      domain: 'crv.example.org',
    })
    expect(received[1]?.body).toMatchObject({
      name: 'tachistoscope_complete',
      props: { exposureMs: 500 },
    })
    expect(received[0]?.ua).toBe('Browser/1.0')
    expect(JSON.stringify(received)).not.toContain(userToken)
    expect((await send(app, { events: [{ name: 'page_view', path: p }] })).statusCode).toBe(202)
    const limited = await send(app, { events: [{ name: 'page_view', path: p }] })
    expect(limited.statusCode).toBe(429)
    expect(limited.json().error.code).toBe('rate_limited')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(await storedAt(p)).toHaveLength(3)
  })

  it('forwards to Umami in its own shape', async () => {
    const umami = Fastify()
    const got: Record<string, unknown>[] = []
    umami.post('/api/send', async (request) => {
      got.push(request.body as Record<string, unknown>)
      return { ok: true }
    })
    const url = await umami.listen({ port: 0, host: '127.0.0.1' })
    const forwarding = (
      await buildTestService(descriptorsApp, loadDescriptorsConfig, {
        DATABASE_URL: testDatabaseUrl(),
        ANALYTICS_PROVIDER: 'umami',
        ANALYTICS_URL: url,
        ANALYTICS_SITE: 'site-id-1',
      })
    ).app
    try {
      const p = path()
      await send(forwarding, {
        events: [
          { name: 'page_view', path: `${p}?q=1` },
          { name: 'tachistoscope_start', path: p, props: { category: 'random' } },
        ],
      })
      await vi.waitFor(() => expect(got).toHaveLength(2))
      expect(got[0]).toEqual({ type: 'event', payload: { website: 'site-id-1', url: p } })
      expect(got[1]).toEqual({
        type: 'event',
        payload: {
          website: 'site-id-1',
          url: p,
          name: 'tachistoscope_start',
          data: { category: 'random' },
        },
      })
    } finally {
      await forwarding.close()
      await umami.close()
    }
  })

  it('refuses to start with a provider but no server or site', async () => {
    await expect(
      buildTestService(descriptorsApp, loadDescriptorsConfig, {
        DATABASE_URL: testDatabaseUrl(),
        ANALYTICS_PROVIDER: 'umami',
      }),
    ).rejects.toThrow(/ANALYTICS_URL/)
  })
})

describe('the analytics summary', () => {
  it('counts page views per route and tachistoscope sessions for 7 and 30 days', async () => {
    const p = path()
    const old = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000)
    const summary = async () => (await h.as(adminToken).get('/api/admin/analytics')).json()
    const before = await summary()
    await send(h.app, {
      events: [
        { name: 'page_view', path: p },
        { name: 'page_view', path: p },
        { name: 'tachistoscope_start', path: '/tachistoscope' },
        { name: 'tachistoscope_show_again', path: '/tachistoscope' },
        { name: 'tachistoscope_complete', path: '/tachistoscope' },
      ],
    })
    // An event from ten days ago counts in the 30-day window only.
    await h.app.pg.query(
      `INSERT INTO descriptors.analytics_events (name, path, occurred_at) VALUES ('page_view', $1, $2)`,
      [p, old],
    )
    const after = await summary()
    const [week, month] = after.windows
    expect(week.days).toBe(7)
    expect(month.days).toBe(30)
    const views = (w: { pageViews: { path: string; views: number }[] }) =>
      w.pageViews.find((x) => x.path === p)?.views
    expect(views(week)).toBe(2)
    expect(views(month)).toBe(3)
    expect(week.tachistoscope.sessions - before.windows[0].tachistoscope.sessions).toBe(1)
    expect(week.tachistoscope.showAgain - before.windows[0].tachistoscope.showAgain).toBe(1)
    expect(week.tachistoscope.completed - before.windows[0].tachistoscope.completed).toBe(1)
    expect(month.totalPageViews - before.windows[1].totalPageViews).toBe(3)
  })
})

describe('bounds on what anonymous visitors store', () => {
  it('counts events, not batches, against the per-address limit', () => {
    const limiter = new EventRateLimiter(120)
    const now = Date.now()
    expect(limiter.take('10.0.0.1', 50, now)).toBe(0)
    expect(limiter.take('10.0.0.1', 50, now)).toBe(0)
    // 100 stored; another full batch would pass 120.
    expect(limiter.take('10.0.0.1', 50, now)).toBeGreaterThan(0)
    expect(limiter.take('10.0.0.1', 20, now)).toBe(0)
    expect(limiter.take('10.0.0.2', 50, now)).toBe(0)
    expect(limiter.take('10.0.0.1', 1, now + 60_000)).toBe(0)
  })

  it('removes events past the retention period and keeps the recent ones', async () => {
    const p = path()
    await h.app.pg.query(
      `INSERT INTO descriptors.analytics_events (name, path, props, occurred_at)
       VALUES ('page_view', $1, '{}', now() - interval '91 days'), ('page_view', $1, '{}', now())`,
      [p],
    )
    expect(await storedAt(p)).toHaveLength(2)
    expect(await pruneEvents(h.app.db, 90)).toBeGreaterThanOrEqual(1)
    expect(await storedAt(p)).toHaveLength(1)
  })
})
