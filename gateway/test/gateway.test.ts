import { createServer, request as httpRequest } from 'node:http'
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { contractOperations, createApp, createValidators } from '@crv/kit'
import { buildTestService, createTestKeys, testEnv, testRedisUrl } from '@crv/kit/testing'
import astroApp from '../../services/astro/src/app.ts'
import { loadAstroConfig } from '../../services/astro/src/config.ts'
import gatewayApp from '../src/app.ts'
import { loadGatewayConfig, SERVICES } from '../src/config.ts'
import { deadUrl, listen } from './servers.ts'

// Large uploads are checked at the edge against these keys.
const keys = await createTestKeys()
const adminToken = await keys.tokenFor('admin')

async function gateway(env: Record<string, string | undefined>): Promise<FastifyInstance> {
  const config = loadGatewayConfig(testEnv(env))
  const app = createApp(config)
  await app.register(gatewayApp, { config, verifyToken: keys.verifyToken })
  await app.ready()
  return app
}

async function frontendDist(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crv-dist-'))
  await mkdir(join(dir, 'assets'))
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div></body></html>',
  )
  const script = 'console.log("hello")\n'.repeat(100)
  await writeFile(join(dir, 'assets', 'index-abc123.js'), script)
  await writeFile(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script))
  // Route shells (frontend/vite.config.ts): the home page and one other, in two languages; the
  // German descriptor page also compressed.
  for (const language of ['en', 'de']) {
    await mkdir(join(dir, 'shells', language), { recursive: true })
    for (const page of ['index', 'descriptors']) {
      const html = `<!doctype html><html lang="${language}"><body><div id="root" inert>${language}:${page}</div></body></html>`
      await writeFile(join(dir, 'shells', language, `${page}.html`), html)
      if (language === 'de' && page === 'descriptors')
        await writeFile(join(dir, 'shells', language, `${page}.html.br`), brotliCompressSync(html))
    }
  }
  await writeFile(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})\n')
  await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"CRV Training"}')
  return dir
}

describe('routing from the contract', () => {
  let app: FastifyInstance
  const seen: Record<string, string[]> = {}

  beforeAll(async () => {
    const env: Record<string, string> = {}
    for (const name of SERVICES) {
      // Each stand-in says which service it is, so a wrong route shows up as the wrong name.
      const server = createServer((req, res) => {
        ;(seen[name] ??= []).push(`${req.method} ${req.url}`)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ service: name, requestId: req.headers['x-request-id'] }))
      })
      env[`${name.toUpperCase()}_URL`] = await listen(server)
    }
    app = await gateway(env)
  })

  it('sends every operation of the contract to the service its tag names', async () => {
    const ops = contractOperations().filter((op) => op.tag !== 'gateway')
    expect(ops.length).toBeGreaterThan(30)
    for (const op of ops) {
      const url = op.url.replace(/:([A-Za-z]+)/g, (_m, name: string) =>
        name === 'category' ? 'random' : '1',
      )
      const res = await app.inject({
        method: op.method,
        url,
        headers: { authorization: `Bearer ${adminToken}` },
      })
      expect(res.statusCode, `${op.method} ${url}`).toBe(200)
      expect(res.json().service, `${op.operationId}`).toBe(op.tag)
    }
  })

  it('passes the path and query through and a request id along', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/descriptors/bulk?language=de',
      headers: { 'x-request-id': 'trace-me-0001' },
    })
    expect(res.json()).toEqual({ service: 'descriptors', requestId: 'trace-me-0001' })
    expect(seen.descriptors).toContain('GET /api/descriptors/bulk?language=de')
    expect(res.headers['x-request-id']).toBe('trace-me-0001')
  })

  it('answers an unknown API path with 404 in the error shape', async () => {
    for (const url of ['/api/no-such-call', '/api', '/api/descriptors/bulk/extra']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json().error.code).toBe('not_found')
    }
  })

  it('refuses writes sent from another site (CSRF) and allows its own origin', async () => {
    const body = { phone: '+15550000002' }
    const foreign = await app.inject({
      method: 'POST',
      url: '/api/auth/phone/start',
      headers: { origin: 'https://evil.example' },
      payload: body,
    })
    expect(foreign.statusCode).toBe(403)
    expect(foreign.json().error.code).toBe('cross_origin_refused')
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.statusCode).toBe(403)
    // The gateway's own port (PORT, 8080 by default) on this machine.
    const own = await app.inject({
      method: 'POST',
      url: '/api/auth/phone/start',
      headers: { origin: 'http://localhost:8080', host: 'localhost:8080' },
      payload: body,
    })
    expect(own.statusCode).toBe(200)
  })

  it('sends security headers and no CORS headers', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/gestalts?language=en',
      headers: { origin: 'https://evil.example' },
    })
    // The API's data may load nothing and be framed by nothing.
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    )
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('limits and failures', () => {
  let app: FastifyInstance
  let base: string
  let astro: FastifyInstance

  beforeAll(async () => {
    astro = (await buildTestService(astroApp, loadAstroConfig)).app
    const astroUrl = await astro.listen({ port: 0, host: '127.0.0.1' })
    // An upstream that accepts and never answers.
    const hang = createServer(() => {})
    const echo = createServer((req, res) => {
      let bytes = 0
      req.on('data', (c: Buffer) => (bytes += c.length))
      req.on('end', () => res.end(JSON.stringify({ bytes })))
    })
    app = await gateway({
      ASTRO_URL: astroUrl,
      AI_URL: await listen(hang),
      MEDIA_URL: await listen(echo),
      AUTH_URL: await deadUrl(),
      DESCRIPTORS_URL: await deadUrl(),
      UPSTREAM_TIMEOUT_MS: '300',
      FRONTEND_DIST: await frontendDist(),
    })
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await app.close()
    await astro.close()
  })

  it('sends the app’s pages and its service worker the page’s policy', async () => {
    // The service worker's own fetches follow its script's policy: `default-src 'none'` would
    // stop the app working offline.
    for (const url of ['/descriptors', '/sw.js', '/manifest.webmanifest']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-security-policy'], url).toMatch(
        /default-src 'self'; script-src 'self'.*connect-src 'self'/,
      )
      expect(res.headers['x-frame-options'], url).toBe('DENY')
    }
  })

  it('forwards to a real service and returns its answer untouched', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/sidereal-time/auto?lat=52.52&lng=13.4',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ ut1_assumed_utc: true, location: { latitude: 52.52 } })
    const refused = await app.inject({
      method: 'GET',
      url: '/api/sidereal-time/auto?lat=91&lng=13.4',
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error.message).toMatch(/lat/i)
    const health = await app.inject({ method: 'GET', url: '/api/health/astro' })
    expect(health.json()).toMatchObject({ status: 'ok', service: 'astro' })
  })

  it('gives 503 in the error shape for a service that is down, and only for its routes', async () => {
    const started = performance.now()
    const down = await app.inject({ method: 'GET', url: '/api/descriptors/bulk?language=en' })
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(down.statusCode).toBe(503)
    expect(down.json().error.code).toBe('service_unavailable')
    expect(
      (await app.inject({ method: 'GET', url: '/api/sidereal-time/auto?lat=1&lng=2' })).statusCode,
    ).toBe(200)
  })

  it('gives 504 when a service does not answer in time', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ai/speech',
      payload: { word: 'water', language: 'en' },
    })
    expect(res.statusCode).toBe(504)
    expect(res.json().error.code).toBe('upstream_timeout')
  })

  it('answers its own liveness at /health, not the app page', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' })
    expect(res.json()).toEqual({ status: 'ok', service: 'gateway' })
  })

  it('reports each service in /api/health and 503 while any is down', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(503)
    const body = res.json()
    expect(body.status).toBe('degraded')
    expect(body.services.astro.status).toBe('up')
    expect(body.services.auth.status).toBe('down')
    expect(Object.keys(body.services).sort()).toEqual([...SERVICES].sort())
  })

  it('refuses a body over the limit with 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ word: 'x'.repeat(70 * 1024) })
    const sized = await app.inject({
      method: 'POST',
      url: '/api/generate-audio',
      headers: { 'content-type': 'application/json' },
      payload: big,
    })
    expect(sized.statusCode).toBe(413)
    expect(sized.json().error.code).toBe('payload_too_large')

    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/generate-audio`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = ''
          res.on('data', (c: Buffer) => (body += c.toString()))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        },
      )
      req.on('error', reject)
      for (let i = 0; i < 70; i++) req.write('x'.repeat(1024))
      req.end()
    })
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body).error.code).toBe('payload_too_large')
  })

  it('lets a large upload through on the route the contract allows it', async () => {
    const body = JSON.stringify({ filename: 'a.jpg', imageData: 'x'.repeat(2 * 1024 * 1024) })
    const res = await app.inject({
      method: 'POST',
      url: '/api/tachistoscope/images/upload',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      payload: body,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().bytes).toBe(body.length)
  })

  it('answers a public page with its pre-rendered shell in the language the app will show', async () => {
    const page = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers })
    const visitor = await page('/')
    expect(visitor.statusCode).toBe(200)
    expect(visitor.body).toContain('>en:index<')
    expect(visitor.headers['cache-control']).toBe('no-cache')
    expect(visitor.headers.vary).toMatch(/Accept-Language/)
    expect(visitor.headers.vary).toMatch(/Cookie/)
    // The browser's languages in order of preference, by primary subtag.
    expect(
      (await page('/descriptors', { 'accept-language': 'fr-CA, de-AT;q=0.8, en;q=0.5' })).body,
    ).toContain('>de:descriptors<')
    expect(
      (await page('/descriptors', { 'accept-language': 'en;q=0.2, de;q=0.9' })).body,
    ).toContain('>de:descriptors<')
    expect((await page('/descriptors', { 'accept-language': 'ja, *;q=0.1' })).body).toContain(
      '>en:descriptors<',
    )
    // A language chosen in the app (its cookie) wins over the browser's.
    expect(
      (await page('/', { 'accept-language': 'de', cookie: 'x=1; crv-lang=en' })).body,
    ).toContain('>en:index<')
    expect((await page('/', { cookie: 'crv-lang=de' })).body).toContain('>de:index<')
    // A cookie naming no language we have, or something else, changes nothing.
    expect((await page('/', { cookie: 'crv-lang=../../etc' })).body).toContain('>en:index<')
    // Compressed where the build compressed it.
    const brotli = await page('/descriptors', { 'accept-language': 'de', 'accept-encoding': 'br' })
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toContain('>de:descriptors<')
    // Someone who may be signed in gets the app without the visitor's page.
    const member = await page('/descriptors', { cookie: 'crv-lang=de; crv_session=1' })
    expect(member.body).toContain('<div id="root"></div>')
    // A page without a shell gets the bare app, whatever the language.
    const bare = await page('/settings', { 'accept-language': 'de' })
    expect(bare.body).toContain('<div id="root"></div>')
    expect(bare.headers.vary ?? '').not.toMatch(/Accept-Language/)
  })

  it('serves the app for page routes and hashed assets with immutable caching', async () => {
    const home = await app.inject({ method: 'GET', url: '/' })
    expect(home.statusCode).toBe(200)
    expect(home.body).toContain('<div id="root"')
    const page = await app.inject({ method: 'GET', url: '/sidereal-time' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/text\/html/)
    expect(page.body).toContain('<div id="root">')
    expect(page.headers['cache-control']).toBe('no-cache')
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const compressed = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(compressed.headers['content-encoding']).toBe('br')
    expect(compressed.rawPayload.length).toBeLessThan(asset.rawPayload.length / 10)
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(asset.body)
    // The service worker and the manifest are looked at anew on every load.
    const worker = await app.inject({ method: 'GET', url: '/sw.js' })
    expect(worker.statusCode).toBe(200)
    expect(worker.headers['content-type']).toMatch(/javascript/)
    expect(worker.headers['cache-control']).toBe('no-cache')
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' })
    expect(manifest.headers['content-type']).toMatch(/application\/manifest\+json/)
    expect(manifest.headers['cache-control']).toBe('no-cache')
    const missing = await app.inject({ method: 'GET', url: '/assets/index-missing.js' })
    expect(missing.statusCode).toBe(404)
  })
})

describe('rate limits', () => {
  it('answers 429 in the error shape past the limit', async () => {
    const app = await gateway({ RATE_LIMIT_MAX: '3', ASTRO_URL: await deadUrl() })
    const statuses: number[] = []
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await app.inject({ method: 'GET', url: '/api/sidereal-time/auto?lat=1&lng=2' }))
          .statusCode,
      )
    expect(statuses).toEqual([503, 503, 503, 429])
    const res = await app.inject({ method: 'GET', url: '/api/sidereal-time/auto?lat=1&lng=2' })
    expect(res.json().error.code).toBe('rate_limited')
    expect(res.headers['retry-after']).toBeTruthy()
    await app.close()
  })

  it('lets requests through when its Redis store is down', async () => {
    const app = await gateway({
      RATE_LIMIT_MAX: '1',
      REDIS_URL: `redis://127.0.0.1:${new URL(await deadUrl()).port}`,
      ASTRO_URL: await deadUrl(),
    })
    for (let i = 0; i < 3; i++) {
      expect(
        (await app.inject({ method: 'GET', url: '/api/sidereal-time/auto?lat=1&lng=2' }))
          .statusCode,
      ).toBe(503)
    }
    await app.close()
  })

  it.skipIf(!testRedisUrl())(
    'shares the count between gateway replicas through Redis',
    async () => {
      const shared = { RATE_LIMIT_MAX: '2', REDIS_URL: testRedisUrl(), ASTRO_URL: await deadUrl() }
      const [a, b] = [await gateway(shared), await gateway(shared)]
      const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
      const hit = (g: FastifyInstance) =>
        g.inject({ method: 'GET', url: '/api/sidereal-time/auto?lat=1&lng=2', remoteAddress: ip })
      const statuses = [
        (await hit(a)).statusCode,
        (await hit(b)).statusCode,
        (await hit(a)).statusCode,
      ]
      expect(statuses).toEqual([503, 503, 429])
      await Promise.all([a.close(), b.close()])
    },
  )
})

describe('the health report', () => {
  /** Stand-ins for every service, counting how often the gateway asks each one's readiness. */
  async function countedServices() {
    const asked = Object.fromEntries(SERVICES.map((name) => [name, 0])) as Record<string, number>
    const env: Record<string, string> = {}
    for (const name of SERVICES) {
      const server = createServer((req, res) => {
        if (req.url === '/ready') asked[name] = (asked[name] ?? 0) + 1
        res.setHeader('content-type', 'application/json')
        res.end('{"status":"ok"}')
      })
      env[`${name.toUpperCase()}_URL`] = await listen(server)
    }
    return { asked, env }
  }

  it('asks each service at most once a second, however many clients ask at once', async () => {
    const { asked, env } = await countedServices()
    const app = await gateway({ ...env, RATE_LIMIT_MAX: '100000' })
    try {
      // The finding: eight clients asking as fast as they can (2,400 calls in 6 s).
      const clients = Array.from({ length: 8 }, (_, i) => `10.8.0.${i + 1}`)
      const ask = (ip: string) =>
        app.inject({ method: 'GET', url: '/api/health', remoteAddress: ip })
      const started = performance.now()
      const burst = await Promise.all(
        clients.flatMap((ip) => Array.from({ length: 10 }, () => ask(ip))),
      )
      expect(burst.map((r) => r.statusCode)).toEqual(Array<number>(80).fill(200))
      expect(burst[79]?.json().services.astro.status).toBe('up')
      expect(asked).toEqual(Object.fromEntries(SERVICES.map((name) => [name, 1])))
      let calls = burst.length
      while (performance.now() - started < 2_500) {
        const round = await Promise.all(clients.map(ask))
        expect(round.map((r) => r.statusCode)).toEqual(Array<number>(8).fill(200))
        calls += round.length
      }
      const seconds = (performance.now() - started) / 1000
      for (const name of SERVICES) {
        expect(
          asked[name],
          `${name} after ${calls} calls in ${seconds.toFixed(1)} s`,
        ).toBeLessThanOrEqual(Math.floor(seconds) + 1)
        // Kept about a second, not for good: a service that goes down shows within seconds.
        expect(asked[name], name).toBeGreaterThanOrEqual(2)
      }
    } finally {
      await app.close()
    }
  })

  it('reports every service it forwards to, in the shape the contract gives', async () => {
    const env: Record<string, string> = {}
    for (const name of SERVICES) env[`${name.toUpperCase()}_URL`] = await deadUrl()
    const app = await gateway(env)
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' })
      const validate = createValidators().response({ $ref: 'openapi.json#/$defs/GatewayHealth' })
      expect(validate(res.json()), JSON.stringify(validate.errors)).toBe(true)
      expect(Object.keys(res.json().services).sort()).toEqual([...SERVICES].sort())
    } finally {
      await app.close()
    }
  })

  it("answers 429 in the contract's error shape past the per-client limit, on both health routes", async () => {
    const env: Record<string, string> = {}
    for (const name of SERVICES) env[`${name.toUpperCase()}_URL`] = await deadUrl()
    const app = await gateway({ ...env, RATE_LIMIT_MAX: '3' })
    try {
      const ask = (url: string, ip = '10.8.1.1') =>
        app.inject({ method: 'GET', url, remoteAddress: ip })
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) statuses.push((await ask('/api/health')).statusCode)
      expect(statuses).toEqual([503, 503, 503, 429])
      // One count per client, as on every other route of the gateway.
      for (const url of ['/api/health', '/api/health/astro', '/api/settings']) {
        const refused = await ask(url)
        expect(refused.statusCode, url).toBe(429)
        expect(refused.headers['retry-after'], url).toBeTruthy()
        const validate = createValidators().response({ $ref: 'openapi.json#/$defs/Error' })
        expect(validate(refused.json()), JSON.stringify(validate.errors)).toBe(true)
        expect(refused.json().error.code).toBe('rate_limited')
      }
      // Another client is not held back by this one.
      expect((await ask('/api/health', '10.8.2.1')).statusCode).toBe(503)
    } finally {
      await app.close()
    }
  })
})
