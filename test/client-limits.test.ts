// Per-client limits through the real gateway: two clients from two addresses each get their own
// count at the auth service. With the service not trusting the gateway's forwarded address (the
// compose file's old TRUST_PROXY), every client looked like the gateway and one client's sends
// used up everyone's. An IPv6 client holds a whole /64 (one subscriber's prefix), so every limit
// counts a /64 as one client: keyed by the full address, one /64 was 2^64 fresh counts.
import { randomInt } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createApp } from '@crv/kit'
import { buildTestService, testDatabaseUrl, testEnv } from '@crv/kit/testing'
import gatewayApp from '../gateway/src/app.ts'
import { loadGatewayConfig } from '../gateway/src/config.ts'
import aiApp from '../services/ai/src/app.ts'
import { loadAiConfig } from '../services/ai/src/config.ts'
import descriptorsApp from '../services/descriptors/src/app.ts'
import { loadDescriptorsConfig } from '../services/descriptors/src/config.ts'
import practiceApp from '../services/practice/src/app.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'
import { authService, newPhone } from '../services/auth/test/helpers.ts'

const running: FastifyInstance[] = []
afterAll(() => Promise.all(running.map((app) => app.close())))

/** A real gateway in front of the services at `env`'s URLs (the others are down). */
async function gatewayTo(env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadGatewayConfig(testEnv(env))
  const gateway = createApp(config)
  running.push(gateway)
  await gateway.register(gatewayApp, { config })
  await gateway.ready()
  return gateway
}

/** A service app, listening on a loopback port of its own. */
async function listening(app: FastifyInstance): Promise<string> {
  running.push(app)
  return app.listen({ port: 0, host: '127.0.0.1' })
}

/** The auth service behind a real gateway, both on loopback ports. */
async function stack(authEnv: Record<string, string>): Promise<string> {
  const auth = await authService({ PHONE_SENDS_PER_IP_PER_HOUR: '3', ...authEnv })
  const gateway = await gatewayTo({ AUTH_URL: await listening(auth) })
  await gateway.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`
}

/** A code request sent from the client address `from` (any 127/8 address is this machine). */
function sendCode(base: string, from: string): Promise<number> {
  const body = JSON.stringify({ phone: newPhone() })
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/api/auth/phone/start`,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** A loopback address of its own per run: the count of an address outlives a run by an hour. */
const loopbackAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(2, 255)}`

describe('per-client limits through the gateway', () => {
  it("gives each client address its own count: one client's sends never block another's", async () => {
    const base = await stack({ TRUST_PROXY: 'loopback' })
    const [clientA, clientB] = [loopbackAddress(), loopbackAddress()]
    const a: number[] = []
    for (let i = 0; i < 4; i++) a.push(await sendCode(base, clientA))
    expect(a).toEqual([202, 202, 202, 429])
    expect(await sendCode(base, clientB)).toBe(202)
  })

  it('shares one count among all clients when the service does not trust the gateway', async () => {
    // The control: the misconfiguration this guards against shows up as a 429 for B.
    const base = await stack({ TRUST_PROXY: 'false' })
    // Every client is the gateway's address here, whose count earlier runs may have used: send
    // from A until it is refused, then B is refused too.
    let status = 0
    for (let i = 0; i < 5 && status !== 429; i++) status = await sendCode(base, loopbackAddress())
    expect(status).toBe(429)
    expect(await sendCode(base, loopbackAddress())).toBe(429)
  })
})

/**
 * A /64 of its own per run (counts outlive a run by an hour), and its `i`th address, spelled in
 * turn the ways a client's stack or a proxy writes one: compressed, upper case, zero-padded,
 * with an embedded IPv4 tail, with a zone id.
 */
function ipv6Network(): (i: number) => string {
  const [a, b] = [randomInt(0, 0x10000).toString(16), randomInt(0, 0x10000).toString(16)]
  const spellings = [
    (i: number) => `2001:db8:${a}:${b}::${(i + 1).toString(16)}`,
    (i: number) => `2001:DB8:${a}:${b}:0:0:${(i + 1).toString(16)}:1`.toUpperCase(),
    (i: number) => `2001:0db8:${a.padStart(4, '0')}:${b.padStart(4, '0')}:${i + 1}:0:0:0`,
    (i: number) => `2001:db8:${a}:${b}::${i + 1}:192.0.2.1`,
    (i: number) => `2001:db8:${a}:${b}::${(i + 1).toString(16)}:1%eth0`,
  ]
  return (i) => (spellings[i % spellings.length] as (i: number) => string)(i)
}

/** Statuses of `count` requests, each from the next address of `from`. */
async function statusesFrom(
  gateway: FastifyInstance,
  from: (i: number) => string,
  count: number,
  request: () => { method: 'GET' | 'POST'; url: string; payload?: object },
): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < count; i++)
    statuses.push((await gateway.inject({ ...request(), remoteAddress: from(i) })).statusCode)
  return statuses
}

const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value)

describe('per-client limits over IPv6: one /64 is one client', () => {
  it('caps sign-in codes from 21 addresses of one /64 at the per-address limit of 20', async () => {
    const auth = await authService({ PHONE_SENDS_PER_IP_PER_HOUR: '20' })
    const gateway = await gatewayTo({ AUTH_URL: await listening(auth) })
    const start = () => ({
      method: 'POST' as const,
      url: '/api/auth/phone/start',
      payload: { phone: newPhone() },
    })
    expect(await statusesFrom(gateway, ipv6Network(), 21, start)).toEqual([...times(20, 202), 429])
    // Another /64 has its own count.
    expect(await statusesFrom(gateway, ipv6Network(), 1, start)).toEqual([202])
  })

  it('caps practice trials started from one /64', async () => {
    const { app } = await buildTestService(practiceApp, loadPracticeConfig, {
      DATABASE_URL: testDatabaseUrl(),
      ASTRO_URL: 'http://127.0.0.1:9',
      PRACTICE_TRIALS_PER_IP_PER_HOUR: '3',
    })
    const gateway = await gatewayTo({ PRACTICE_URL: await listening(app) })
    const trial = () => ({ method: 'POST' as const, url: '/api/practice/trial' })
    expect(await statusesFrom(gateway, ipv6Network(), 4, trial)).toEqual([201, 201, 201, 429])
    expect(await statusesFrom(gateway, ipv6Network(), 1, trial)).toEqual([201])
  })

  it("caps an anonymous /64's speech requests", async () => {
    const { app } = await buildTestService(aiApp, loadAiConfig, {
      REDIS_URL: undefined,
      AI_RATE_LIMIT_ANONYMOUS: '2',
    })
    const gateway = await gatewayTo({ AI_URL: await listening(app) })
    const speech = () => ({
      method: 'POST' as const,
      url: '/api/ai/speech',
      payload: { word: 'stone', language: 'en' },
    })
    expect(await statusesFrom(gateway, ipv6Network(), 3, speech)).toEqual([200, 200, 429])
    expect(await statusesFrom(gateway, ipv6Network(), 1, speech)).toEqual([200])
  })

  it("caps a /64's analytics events", async () => {
    const { app } = await buildTestService(descriptorsApp, loadDescriptorsConfig, {
      DATABASE_URL: testDatabaseUrl(),
      EVENTS_PER_MINUTE: '3',
    })
    const gateway = await gatewayTo({ DESCRIPTORS_URL: await listening(app) })
    const event = () => ({
      method: 'POST' as const,
      url: '/api/events',
      payload: { events: [{ name: 'page_view', path: '/client-limits' }] },
    })
    expect(await statusesFrom(gateway, ipv6Network(), 4, event)).toEqual([202, 202, 202, 429])
    expect(await statusesFrom(gateway, ipv6Network(), 1, event)).toEqual([202])
  })

  it("caps a /64's requests at the gateway", async () => {
    // No astro service: each request is answered 503 by the gateway, until the limit's 429.
    const gateway = await gatewayTo({ RATE_LIMIT_MAX: '3', ASTRO_URL: 'http://127.0.0.1:9' })
    const sidereal = () => ({ method: 'GET' as const, url: '/api/sidereal-time/auto?lat=1&lng=2' })
    expect(await statusesFrom(gateway, ipv6Network(), 4, sidereal)).toEqual([503, 503, 503, 429])
    expect(await statusesFrom(gateway, ipv6Network(), 1, sidereal)).toEqual([503])
  })
})
