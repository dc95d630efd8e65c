// The fast path (src/fast-path.ts) over a real port: a GET of a forwarded operation is answered
// before Fastify, and what the caller and the service see is what Fastify's path gives them. Each
// case is sent to a gateway with the fast path and to one without (FAST_PATH=false), and the two
// answers are compared; the fast path's count of its own answers shows which path answered.
import { createServer } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { Writable } from 'node:stream'
import { request } from 'undici'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { loggerOptions } from '@crv/kit'
import { testEnv, testRedisUrl } from '@crv/kit/testing'
import { buildGateway } from '../src/app.ts'
import { loadGatewayConfig, SERVICES } from '../src/config.ts'
import type { FastPath } from '../src/fast-path.ts'
import { closeAfterAll, deadUrl, listen, logLines } from './servers.ts'

/**
 * Every service: answers with what it was sent (method, path, headers); `?policy=1` sets its own
 * content security policy, `?html=1` answers a page, `?slow=1` answers after 2 s, `?boom=1`
 * answers 500.
 */
const upstream = await listen(
  createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams
    const answer = () => {
      const body = JSON.stringify({ method: req.method, url: req.url, headers: req.headers })
      res.writeHead(query.has('boom') ? 500 : 200, {
        'content-type': query.has('html') ? 'text/html; charset=utf-8' : 'application/json',
        'x-served-by': 'upstream',
        ...(query.has('policy') ? { 'content-security-policy': "default-src 'none'" } : {}),
      })
      res.end(body)
    }
    req.resume()
    req.on('end', () => (query.has('slow') ? setTimeout(answer, 2_000) : answer()))
  }),
)

interface Running {
  base: string
  app: FastifyInstance
  fastPath: FastPath | undefined
}

async function start(env: Record<string, string | undefined> = {}, stream?: Writable) {
  const urls: Record<string, string> = {}
  for (const name of SERVICES) urls[`${name.toUpperCase()}_URL`] = upstream
  const config = loadGatewayConfig(testEnv({ ...urls, ...env }))
  const { app, fastPath } = await buildGateway(
    config,
    {},
    stream ? { logger: { ...loggerOptions(config), stream } } : {},
  )
  closeAfterAll(app)
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  return { base, app, fastPath } satisfies Running
}

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

async function ask(
  base: string,
  path: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const res = await request(base + path, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body ?? null,
  })
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() }
}

/**
 * What may differ between two answers to one request: the time, a fresh request id, the gateway's
 * port.
 */
function comparable({ status, headers, body }: Answer, givenId: boolean) {
  const kept = { ...headers }
  delete kept.date
  delete kept['x-ratelimit-reset']
  if (!givenId) delete kept['x-request-id']
  let seen: unknown = body
  try {
    const echoed = JSON.parse(body) as { headers?: Record<string, string> }
    if (echoed.headers) {
      delete echoed.headers['x-request-id']
      delete echoed.headers.host
      // The caller's Host, which names each gateway's own port.
      const forwardedHost = echoed.headers['x-forwarded-host']
      if (forwardedHost)
        echoed.headers['x-forwarded-host'] = forwardedHost.replace(/:\d+$/, ':port')
    }
    seen = echoed
  } catch {
    // not the upstream's echo
  }
  return { status, headers: kept, body: seen }
}

const SIDEREAL = '/api/sidereal-time/auto?lat=52.52&lng=13.4'

describe('the fast path', () => {
  let fast: Running
  let plain: Running
  beforeAll(async () => {
    fast = await start()
    plain = await start({ FAST_PATH: 'false' })
    expect(plain.fastPath).toBeUndefined()
  })

  const cases: [string, string, Record<string, string>][] = [
    ['a plain GET with a query', SIDEREAL, {}],
    ['a GET with its own request id', SIDEREAL, { 'x-request-id': 'given-id-123' }],
    [
      'a GET through a trusted proxy (loopback)',
      SIDEREAL,
      {
        'x-forwarded-for': '203.0.113.9, 198.51.100.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'localhost',
      },
    ],
    [
      'a GET of a path with parameters',
      '/api/practice/sessions/3f2c0a4e-5b1d-4c2e-9d7a-1b2c3d4e5f60',
      {},
    ],
    ['an answer with its own security policy', `${SIDEREAL}&policy=1`, {}],
    ['a page (HTML) from a service', `${SIDEREAL}&html=1`, {}],
    ['a service that fails', `${SIDEREAL}&boom=1`, {}],
    // The gateway's own operation: the service is asked its /health, without the query.
    ['a service’s liveness', '/api/health/astro', {}],
    ['a service’s liveness asked with a query', '/api/health/media?boom=1', {}],
    [
      'a GET with connection headers',
      SIDEREAL,
      { connection: 'x-private', 'x-private': 'hop', 'accept-language': 'de' },
    ],
  ]
  for (const [name, path, headers] of cases) {
    it(`answers ${name} itself, as Fastify's path does`, async () => {
      const before = fast.fastPath?.answered ?? 0
      const a = await ask(fast.base, path, { headers })
      expect(fast.fastPath?.answered).toBe(before + 1)
      const b = await ask(plain.base, path, { headers })
      const givenId = 'x-request-id' in headers
      expect(comparable(a, givenId)).toEqual(comparable(b, givenId))
      expect(a.headers['x-request-id']).toBeTruthy()
      expect(a.headers['content-security-policy']).toBeTruthy()
    })
  }

  it('sends data the short policy and a page the page’s', async () => {
    // Both gateways, so that each has counted as many requests as the other.
    for (const { base } of [fast, plain]) {
      const data = await ask(base, SIDEREAL)
      expect(data.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      )
      expect(data.headers['x-content-type-options']).toBe('nosniff')
      expect(data.headers['permissions-policy']).toBeUndefined()
      const page = await ask(base, `${SIDEREAL}&html=1`)
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/)
      expect(page.headers['x-frame-options']).toBe('DENY')
      expect(page.headers['permissions-policy']).toBeTruthy()
    }
  })

  it('sends the service the client and host a trusted proxy names', async () => {
    const a = await ask(fast.base, SIDEREAL, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
    })
    const seen = (JSON.parse(a.body) as { headers: Record<string, string> }).headers
    expect(seen['x-forwarded-for']).toBe('203.0.113.9')
    expect(seen['x-forwarded-proto']).toBe('https')
  })

  it('leaves to Fastify what it does not answer, with the same answer', async () => {
    const declined: [string, string, Record<string, string>][] = [
      ['another host', SIDEREAL, { host: 'evil.example' }],
      ['another host named by a trusted proxy', SIDEREAL, { 'x-forwarded-host': 'evil.example' }],
      ['a malformed address', '/api/sidereal-time/auto?lat=%E0%A4%A', {}],
      ['an unknown API path', '/api/no-such-thing', {}],
      ['a page of the app', '/descriptors', {}],
      ['the gateway’s own health', '/health', {}],
      ['the liveness of a service there is not', '/api/health/nope', {}],
    ]
    for (const [name, path, headers] of declined) {
      const before = fast.fastPath?.answered ?? 0
      const a = await ask(fast.base, path, { headers })
      expect(fast.fastPath?.answered, name).toBe(before)
      const b = await ask(plain.base, path, { headers })
      expect(comparable(a, false), name).toEqual(comparable(b, false))
    }
    const misdirected = await ask(fast.base, SIDEREAL, { headers: { host: 'evil.example' } })
    expect(misdirected.status).toBe(421)
  })

  it('gives 503 and 504 in the error shape when a service is down or slow', async () => {
    const down = await start({ ASTRO_URL: await deadUrl() })
    const slow = await start({ UPSTREAM_TIMEOUT_MS: '300' })
    const refused = await ask(down.base, SIDEREAL)
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body).error.code).toBe('service_unavailable')
    expect(refused.headers['content-security-policy']).toBeTruthy()
    const late = await ask(slow.base, `${SIDEREAL}&slow=1`)
    expect(late.status).toBe(504)
    expect(JSON.parse(late.body).error.code).toBe('upstream_timeout')
    expect(down.fastPath?.answered).toBe(1)
    expect(slow.fastPath?.answered).toBe(1)
  })
})

describe('the rate limit on both paths', () => {
  it('counts GETs on the fast path and writes on Fastify’s in one window per client', async () => {
    const { base, fastPath } = await start({ RATE_LIMIT_MAX: '3' })
    const write = () =>
      ask(base, '/api/sidereal-time/custom', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    const first = await ask(base, SIDEREAL)
    expect(first.headers['x-ratelimit-limit']).toBe('3')
    expect(first.headers['x-ratelimit-remaining']).toBe('2')
    expect((await write()).headers['x-ratelimit-remaining']).toBe('1')
    expect((await ask(base, SIDEREAL)).headers['x-ratelimit-remaining']).toBe('0')
    const refused = await ask(base, SIDEREAL)
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBeTruthy()
    expect(refused.headers['x-request-id']).toBeTruthy()
    expect(refused.headers['content-security-policy']).toBeTruthy()
    expect(JSON.parse(refused.body).error).toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: expect.any(Number) },
    })
    expect((await write()).status).toBe(429)
    expect(fastPath?.answered).toBe(3)
  })

  it.skipIf(!testRedisUrl())(
    'shares the count between gateway replicas through Redis',
    async () => {
      const shared = { RATE_LIMIT_MAX: '2', REDIS_URL: testRedisUrl() }
      const [a, b] = [await start(shared), await start(shared)]
      // One client for this run only: Redis keeps earlier runs' counts for their window.
      const ip = `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
      const hit = (g: Running) => ask(g.base, SIDEREAL, { headers: { 'x-forwarded-for': ip } })
      const statuses = [(await hit(a)).status, (await hit(b)).status, (await hit(a)).status]
      expect(statuses).toEqual([200, 200, 429])
      expect((a.fastPath?.answered ?? 0) + (b.fastPath?.answered ?? 0)).toBe(3)
    },
  )

  it('lets requests through when its Redis store is down', async () => {
    const { base } = await start({
      RATE_LIMIT_MAX: '1',
      REDIS_URL: `redis://127.0.0.1:${new URL(await deadUrl()).port}`,
    })
    for (let i = 0; i < 3; i++) expect((await ask(base, SIDEREAL)).status).toBe(200)
  })
})

describe('the fast path’s log', () => {
  it('writes the line Fastify’s path writes, at the same level, and none for a success', async () => {
    type Line = { level: number; msg: string; status?: number; route?: string; reqId?: string }
    const { lines, stream } = logLines<Line>()
    const { base, fastPath } = await start({ LOG_LEVEL: 'info' }, stream)
    const before = lines.length
    for (let i = 0; i < 3; i++) expect((await ask(base, SIDEREAL)).status).toBe(200)
    const failed = await ask(base, `${SIDEREAL}&boom=1`, {
      headers: { 'x-request-id': 'boom-request-1' },
    })
    expect(failed.status).toBe(500)
    expect(fastPath?.answered).toBe(4)
    // The line is written when the answer has gone.
    await new Promise((r) => setTimeout(r, 50))
    expect(lines.slice(before)).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'request',
        status: 500,
        route: '/api/sidereal-time/auto',
        reqId: 'boom-request-1',
      }),
    ])
  })
})
