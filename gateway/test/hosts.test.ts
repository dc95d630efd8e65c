// DNS rebinding: a page on a name the attacker controls, re-pointed at this machine, talks to the
// gateway with its own name in `Host` and `Origin`. The gateway answers only the hosts the
// configuration names, takes its own origin from the configuration, and the development outbox of
// sign-in codes cannot be read through a proxy on this machine without its key.
import { createServer, request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createApp } from '@crv/kit'
import { createTestKeys, testEnv } from '@crv/kit/testing'
import { authService, newPhone, outboxCode, post } from '../../services/auth/test/helpers.ts'
import gatewayApp from '../src/app.ts'
import { loadGatewayConfig, SERVICES } from '../src/config.ts'
import { closeAfterAll, listen } from './servers.ts'

const REBOUND = 'rebind.attacker.example'
const OUTBOX = '/api/auth/dev/sms-outbox'
const keys = await createTestKeys()

/** Stand-ins for every service that answer 200 to anything: what the gateway lets through. */
async function standIns(): Promise<Record<string, string>> {
  const env: Record<string, string> = {}
  for (const name of SERVICES) {
    env[`${name.toUpperCase()}_URL`] = await listen(
      createServer((_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify([{ service: name, phone: '+15550000001', code: '123456' }]))
      }),
    )
  }
  return env
}

async function frontendDist(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crv-dist-'))
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>')
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *\n')
  return dir
}

async function gateway(env: Record<string, string | undefined>): Promise<FastifyInstance> {
  const config = loadGatewayConfig(testEnv(env))
  const app = createApp(config)
  await app.register(gatewayApp, { config, verifyToken: keys.verifyToken })
  await app.ready()
  closeAfterAll(app)
  return app
}

const PHONE_START = { method: 'POST', url: '/api/auth/phone/start' } as const
const body = { phone: '+15550000002' }

describe('the hosts the gateway answers', () => {
  let dev: FastifyInstance
  let production: FastifyInstance
  beforeAll(async () => {
    const env = { ...(await standIns()), FRONTEND_DIST: await frontendDist(), PORT: '8080' }
    dev = await gateway({ ...env, NODE_ENV: 'development' })
    production = await gateway({
      ...env,
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://crv.example.org',
      ALLOWED_HOSTS: 'gateway.internal',
    })
  })

  it('answers 421 to a rebound Host on the outbox and every other route', async () => {
    for (const host of [`${REBOUND}:8080`, REBOUND, `${REBOUND.toUpperCase()}:8080`]) {
      for (const [method, url] of [
        ['GET', OUTBOX],
        ['GET', '/api/settings'],
        ['GET', '/api/health'],
        ['GET', '/api/no-such-call'],
        ['GET', '/'],
        ['GET', '/robots.txt'],
        ['GET', '/descriptors'],
        ['POST', '/api/auth/phone/start'],
        ['OPTIONS', '/api/settings'],
      ] as const) {
        const res = await dev.inject({
          method,
          url,
          headers: { host },
          ...(method === 'POST' ? { payload: body } : {}),
        })
        expect(res.statusCode, `${method} ${url} as ${host}`).toBe(421)
        expect(res.json().error.code).toBe('misdirected_request')
        expect(res.body).not.toContain('123456')
      }
    }
  })

  it('answers 421 when a rebound name comes in X-Forwarded-Host, or hides behind one', async () => {
    // The rebound page is on this machine, so it reaches the gateway from loopback, which the
    // gateway trusts as a proxy by default; a same-origin fetch may set any header it likes.
    for (const headers of [
      { host: 'localhost:8080', 'x-forwarded-host': `${REBOUND}:8080` },
      { host: `${REBOUND}:8080`, 'x-forwarded-host': 'localhost:8080' },
    ]) {
      const res = await dev.inject({ method: 'GET', url: OUTBOX, headers })
      expect(res.statusCode, JSON.stringify(headers)).toBe(421)
    }
  })

  it('answers 421 to a request that names no host, or a malformed one', async () => {
    for (const host of ['localhost@evil.example', 'localhost:8080/x', 'local host', ':8080']) {
      const res = await dev.inject({ method: 'GET', url: '/api/settings', headers: { host } })
      expect(res.statusCode, host).toBe(421)
    }
    // HTTP/1.0 may leave Host out.
    await dev.listen({ port: 0, host: '127.0.0.1' })
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect((dev.server.address() as AddressInfo).port, '127.0.0.1')
      let text = ''
      socket.on('data', (c: Buffer) => (text += c.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
      socket.write('GET /api/settings HTTP/1.0\r\n\r\n')
    })
    expect(answer).toMatch(/^HTTP\/1\.1 421 /)
  })

  it('answers localhost, 127.0.0.1 and [::1] on any port outside production', async () => {
    for (const host of ['localhost:8080', '127.0.0.1:5173', '[::1]:8080', 'LOCALHOST', '[::1]']) {
      const res = await dev.inject({ method: 'GET', url: '/api/settings', headers: { host } })
      expect(res.statusCode, host).toBe(200)
    }
  })

  it("answers PUBLIC_URL's host and ALLOWED_HOSTS in production, and not loopback names", async () => {
    for (const host of ['crv.example.org', 'crv.example.org:443', 'gateway.internal:8080']) {
      const res = await production.inject({
        method: 'GET',
        url: '/api/settings',
        headers: { host },
      })
      expect(res.statusCode, host).toBe(200)
    }
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080', `${REBOUND}`]) {
      const res = await production.inject({
        method: 'GET',
        url: '/api/settings',
        headers: { host },
      })
      expect(res.statusCode, host).toBe(421)
    }
  })

  it('refuses to start in production without an https PUBLIC_URL, naming it', () => {
    // Without it production answered no public host, and the auth service's cookie was not Secure.
    const refusal = /PUBLIC_URL must be the site's https:\/\/ address in production/
    for (const url of [undefined, 'http://crv.example.org', 'http://localhost:8080']) {
      const start = () => loadGatewayConfig(testEnv({ NODE_ENV: 'production', PUBLIC_URL: url }))
      expect(start, url).toThrow(refusal)
    }
  })

  it("answers liveness probes at /health whatever the Host (a kubelet sends the pod's address)", async () => {
    for (const host of ['10.244.1.17:8080', '127.0.0.1:8080', REBOUND]) {
      const res = await production.inject({ method: 'GET', url: '/health', headers: { host } })
      expect(res.statusCode, host).toBe(200)
      expect(res.json()).toEqual({ status: 'ok', service: 'gateway' })
    }
  })
})

describe('the origin a write must come from', () => {
  let dev: FastifyInstance
  let production: FastifyInstance
  beforeAll(async () => {
    const env = await standIns()
    dev = await gateway({ ...env, NODE_ENV: 'development', PORT: '8080' })
    production = await gateway({
      ...env,
      NODE_ENV: 'production',
      PORT: '8080',
      PUBLIC_URL: 'https://crv.example.org',
    })
  })

  it('refuses a write whose Origin names a rebound host', async () => {
    const res = await dev.inject({
      ...PHONE_START,
      headers: { host: `${REBOUND}:8080`, origin: `http://${REBOUND}:8080` },
      payload: body,
    })
    expect(res.statusCode).toBeGreaterThanOrEqual(400)
    expect(res.body).not.toContain('"service"')
  })

  it('takes its own origin from the configuration, never from the Host header', async () => {
    // Host and Origin agree, but name a port the gateway is not on.
    const elsewhere = await dev.inject({
      ...PHONE_START,
      headers: { host: 'localhost:9999', origin: 'http://localhost:9999' },
      payload: body,
    })
    expect(elsewhere.statusCode).toBe(403)
    expect(elsewhere.json().error.code).toBe('cross_origin_refused')
    // Behind a reverse proxy the gateway still knows its public origin: an http Origin for the
    // https site is another origin, whatever X-Forwarded-Proto claims.
    const downgraded = await production.inject({
      ...PHONE_START,
      headers: { host: 'crv.example.org', origin: 'http://crv.example.org' },
      payload: body,
    })
    expect(downgraded.statusCode).toBe(403)
  })

  it('accepts its own origins: PUBLIC_URL, and outside production its loopback origins and those of the frontend dev server', async () => {
    const own = async (app: FastifyInstance, host: string, origin: string) =>
      (await app.inject({ ...PHONE_START, headers: { host, origin }, payload: body })).statusCode
    expect(await own(production, 'crv.example.org', 'https://crv.example.org')).toBe(200)
    expect(await own(production, 'crv.example.org', 'http://localhost:8080')).toBe(403)
    for (const origin of [
      'http://localhost:8080',
      'http://127.0.0.1:8080',
      'http://[::1]:8080',
      // `npm run dev -w frontend`: Vite's proxy passes the page's Host and Origin on.
      'http://localhost:5173',
    ])
      expect(await own(dev, new URL(origin).host, origin), origin).toBe(200)
  })

  it('counts the port it listens on as its own when PORT is 0', async () => {
    const app = await gateway({ ...(await standIns()), NODE_ENV: 'development', PORT: '0' })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const res = await fetch(`${base}/api/auth/phone/start`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(200)
  })
})

/**
 * A proxy on this machine (Vite's dev server with `--host`, or any other) in front of the gateway:
 * it takes requests from the network and passes them on from loopback, with Host rewritten to
 * the gateway's. `announce` adds what the proxy says about itself.
 */
async function sameHostProxy(
  target: string,
  announce: (headers: IncomingHttpHeaders) => IncomingHttpHeaders = (h) => h,
): Promise<string> {
  const { host } = new URL(target)
  return listen(
    createServer((req, res) => {
      const upstream = httpRequest(
        `${target}${req.url}`,
        { method: req.method, headers: announce({ ...req.headers, host }) },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      req.pipe(upstream)
    }),
  )
}

describe('the dev SMS outbox behind a proxy on the same machine', () => {
  const KEY = 'k'.repeat(12) + '-dev-outbox-key-for-tests'
  const started = async (env: Record<string, string>) => {
    const auth = await authService({ DEV_OUTBOX_KEY: KEY, ...env })
    closeAfterAll(auth)
    const authUrl = await auth.listen({ port: 0, host: '127.0.0.1' })
    const gw = await gateway({ AUTH_URL: authUrl, NODE_ENV: 'development' })
    await gw.listen({ port: 0, host: '127.0.0.1' })
    const phone = newPhone()
    expect((await post(auth, '/api/auth/phone/start', { phone })).statusCode).toBe(202)
    return {
      auth,
      phone,
      gateway: `http://127.0.0.1:${(gw.server.address() as AddressInfo).port}`,
    }
  }
  const read = (base: string, phone: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${OUTBOX}?phone=${encodeURIComponent(phone)}`, { headers })

  it('refuses a request a proxy passes on (Vite-style X-Forwarded-*, Via, Forwarded) without the key', async () => {
    const { auth, phone, gateway: target } = await started({})
    const code = outboxCode(auth, phone)
    for (const announce of [
      // Vite's proxy with `xfwd` (frontend/vite.config.ts) and http-proxy: the client, its port.
      (h: IncomingHttpHeaders) => ({
        ...h,
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-port': '5173',
        'x-forwarded-proto': 'http',
      }),
      (h: IncomingHttpHeaders) => ({ ...h, via: '1.1 squid' }),
      (h: IncomingHttpHeaders) => ({ ...h, forwarded: 'for=127.0.0.1;proto=http' }),
      (h: IncomingHttpHeaders) => ({ ...h, 'x-real-ip': '127.0.0.1' }),
    ]) {
      const proxy = await sameHostProxy(target, announce)
      const refused = await read(proxy, phone)
      expect(refused.status).toBe(404)
      expect(await refused.text()).not.toContain(code)
      const withKey = await read(proxy, phone, { 'x-dev-outbox-key': KEY })
      expect(withKey.status).toBe(200)
      expect(await withKey.text()).toContain(code)
    }
    // A direct call from this machine (the probes, the test helpers) needs no key by default.
    expect((await read(target, phone)).status).toBe(200)
  })

  it('refuses a request even a silent proxy passes on, when DEV_OUTBOX_ACCESS=key', async () => {
    const { auth, phone, gateway: target } = await started({ DEV_OUTBOX_ACCESS: 'key' })
    const proxy = await sameHostProxy(target)
    for (const base of [proxy, target]) {
      const refused = await read(base, phone)
      expect(refused.status, base).toBe(404)
      const wrong = await read(base, phone, { 'x-dev-outbox-key': `${KEY}x` })
      expect(wrong.status, base).toBe(404)
      const withKey = await read(base, phone, { 'x-dev-outbox-key': KEY })
      expect(withKey.status, base).toBe(200)
      expect(await withKey.json()).toEqual([
        { phone, code: outboxCode(auth, phone), sentAt: expect.any(String) },
      ])
    }
  })
})
