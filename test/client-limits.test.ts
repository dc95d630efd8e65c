// Per-client limits through the real gateway: two clients from two addresses each get their own
// count at the auth service. With the service not trusting the gateway's forwarded address (the
// compose file's old TRUST_PROXY), every client looked like the gateway and one client's sends
// used up everyone's.
import { randomInt } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createApp } from '@crv/kit'
import { testEnv } from '@crv/kit/testing'
import gatewayApp from '../gateway/src/app.ts'
import { loadGatewayConfig } from '../gateway/src/config.ts'
import { authService, newPhone } from '../services/auth/test/helpers.ts'

const running: FastifyInstance[] = []
afterAll(() => Promise.all(running.map((app) => app.close())))

/** The auth service behind a real gateway, both on loopback ports. */
async function stack(authEnv: Record<string, string>): Promise<string> {
  const auth = await authService({ PHONE_SENDS_PER_IP_PER_HOUR: '3', ...authEnv })
  running.push(auth)
  const authUrl = await auth.listen({ port: 0, host: '127.0.0.1' })
  const config = loadGatewayConfig(testEnv({ AUTH_URL: authUrl }))
  const gateway = createApp(config)
  running.push(gateway)
  await gateway.register(gatewayApp, { config })
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
