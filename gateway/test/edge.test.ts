// What the gateway decides at the edge: limits and the origin check on the route the router
// matched (not on how the URL is spelled), and large uploads checked before their body is read,
// streamed through, and capped in number.
import { createHash } from 'node:crypto'
import { createServer, request as httpRequest } from 'node:http'
import type { IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '@crv/kit'
import { createTestKeys, testEnv } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import gatewayApp from '../src/app.ts'
import { loadGatewayConfig, SERVICES } from '../src/config.ts'
import { closeAfterAll, listen } from './servers.ts'

const UPLOAD = '/api/tachistoscope/images/upload'
interface Upstream {
  /** Requests each stand-in service received, as `METHOD url`. */
  seen: string[]
}

/** Stand-ins for every service: each reads the whole body and answers its size and hash. */
async function upstreams(): Promise<{ env: Record<string, string>; upstream: Upstream }> {
  const upstream: Upstream = { seen: [] }
  const env: Record<string, string> = {}
  for (const name of SERVICES) {
    const server = createServer((req, res) => {
      upstream.seen.push(`${req.method} ${req.url}`)
      const hash = createHash('sha256')
      let bytes = 0
      req.on('data', (c: Buffer) => {
        bytes += c.length
        hash.update(c)
      })
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ service: name, bytes, sha256: hash.digest('hex') }))
      })
    })
    env[`${name.toUpperCase()}_URL`] = await listen(server)
  }
  return { env, upstream }
}

async function gateway(env: Record<string, string>, keys: TestKeys): Promise<string> {
  const config = loadGatewayConfig(testEnv(env))
  const app = createApp(config)
  await app.register(gatewayApp, { config, verifyToken: keys.verifyToken })
  await app.listen({ port: 0, host: '127.0.0.1' })
  closeAfterAll(app)
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

/**
 * Sends the headers of an upload now and only `sent` bytes of its declared body: the answer
 * that comes back before the rest was read from the socket.
 */
function stalledUpload(
  base: string,
  headers: Record<string, string>,
  declared: number,
  sent = 0,
): { response: Promise<IncomingMessage>; abort: () => void } {
  const req = httpRequest(`${base}${UPLOAD}`, {
    method: 'POST',
    headers: {
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': String(declared),
      ...headers,
    },
  })
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve)
    req.on('error', reject)
  })
  // An aborted upload's answer never comes; its rejection is expected, not a failure.
  response.catch(() => undefined)
  req.flushHeaders()
  if (sent > 0) req.write(Buffer.alloc(sent, 1))
  return { response, abort: () => req.destroy() }
}

const json = async (res: IncomingMessage) => {
  let text = ''
  for await (const chunk of res) text += String(chunk)
  return JSON.parse(text) as { error?: { code: string } }
}

describe('decisions on the matched route', () => {
  let base: string
  let upstream: Upstream
  beforeAll(async () => {
    const keys = await createTestKeys()
    const stand = await upstreams()
    upstream = stand.upstream
    base = await gateway({ ...stand.env, RATE_LIMIT_MAX: '3' }, keys)
  })

  it('counts a percent-encoded spelling of an API path against the same limit', async () => {
    const statuses: number[] = []
    for (const path of ['/api/settings', '/api/settings', '/api/settings', '/%61pi/settings'])
      statuses.push((await fetch(`${base}${path}`)).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    // The cheap, unrouted paths stay outside the API's limit.
    expect((await fetch(`${base}/health`)).status).toBe(200)
  })

  it('refuses a cross-site write to a percent-encoded path', async () => {
    const before = upstream.seen.length
    for (const path of ['/%61pi/auth/sign-out', '/api/auth/sign-out', '/%2561pi/auth/sign-out']) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      })
      expect([403, 404, 429], path).toContain(res.status)
      expect(res.status, path).not.toBe(200)
    }
    expect(upstream.seen.slice(before).filter((r) => r.includes('sign-out'))).toEqual([])
  })
})

/** One raw HTTP/1.1 exchange over a socket: the status line and body the client would see. */
function raw(base: string, head: string, body = ''): Promise<{ status: number; text: string }> {
  const { port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1')
    let text = ''
    socket.on('data', (c: Buffer) => (text += c.toString()))
    const done = () => resolve({ status: Number(text.split(' ')[1]), text })
    socket.on('end', done)
    // Some answers leave the connection open: what arrived within the moment is the answer.
    socket.setTimeout(2_000, () => {
      socket.destroy()
      done()
    })
    socket.on('error', reject)
    socket.write(`${head}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n${body}`)
  })
}

describe('request lines as clients send them', () => {
  let base: string
  beforeAll(async () => {
    const keys = await createTestKeys()
    base = await gateway((await upstreams()).env, keys)
  })

  it('accepts an absolute-form target and forwards its path', async () => {
    const res = await raw(base, `GET ${base}/api/settings HTTP/1.1`)
    expect(res.status).toBe(200)
    expect(res.text).toContain('"service":"descriptors"')
  })

  it('answers invalid percent-encoding with 400 in the error shape, never 500', async () => {
    for (const target of [
      '/api/descriptors/bulk?language=%ff',
      '/api/sidereal-time/auto?lat=%zz&lng=1',
      '/api/descriptors/bulk?language=%E0%A4%A',
      '/api/descriptors/%ed%a0%80',
    ]) {
      const res = await raw(base, `GET ${target} HTTP/1.1`)
      expect(res.status, target).toBe(400)
      expect(res.text, target).toMatch(/\{"error":\{"code":"\w+","message":"[^"]+"/)
    }
  })

  it('answers a doubled slash path, conflicting lengths and a chunked body with a length, in the error shape', async () => {
    const shape = /\{"error":\{"code":"\w+","message":"[^"]+"/
    // `//api/settings` is no API route: it reaches no service and gets the app's page (whose
    // router shows 'Page Not Found'), never an upstream answer or a 5xx.
    const doubled = await raw(base, 'GET //api/settings HTTP/1.1')
    expect(doubled.status).toBeLessThan(500)
    expect(doubled.text).not.toContain('"service"')
    for (const head of [
      'POST /api/events HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 13\r\nContent-Length: 14',
      'POST /api/events HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 13\r\nTransfer-Encoding: chunked',
    ]) {
      const res = await raw(base, head, '{"events":[]}')
      expect(res.status, head).toBe(400)
      expect(res.text, head).toMatch(shape)
    }
  })

  it('keeps answering others while one body never ends', async () => {
    const { port } = new URL(base)
    const stalled = connect(Number(port), '127.0.0.1')
    stalled.on('error', () => undefined)
    stalled.write(
      `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"events":`,
    )
    try {
      const res = await fetch(`${base}/api/settings`)
      expect(res.status).toBe(200)
    } finally {
      stalled.destroy()
    }
  })

  it('answers a body sent with Expect: 100-continue', async () => {
    const body = '{"events":[]}'
    const res = await raw(
      base,
      `POST /api/events HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue`,
      body,
    )
    expect(res.text).toMatch(/^HTTP\/1\.1 100 Continue/)
    expect(res.text).toMatch(/HTTP\/1\.1 200 OK/)
  })
})

describe('large uploads', () => {
  let keys: TestKeys
  let base: string
  let upstream: Upstream
  beforeAll(async () => {
    keys = await createTestKeys()
    const stand = await upstreams()
    upstream = stand.upstream
    base = await gateway({ ...stand.env, MAX_CONCURRENT_UPLOADS: '2' }, keys)
  })

  it('refuses an anonymous or non-admin upload before reading its body', async () => {
    const before = upstream.seen.length
    const anonymous = stalledUpload(base, {}, 24 * 1024 * 1024)
    const res = await anonymous.response
    expect(res.statusCode).toBe(401)
    expect((await json(res)).error?.code).toBe('unauthorized')
    anonymous.abort()

    const user = stalledUpload(
      base,
      { authorization: `Bearer ${await keys.tokenFor('user')}` },
      24 * 1024 * 1024,
    )
    const denied = await user.response
    expect(denied.statusCode).toBe(403)
    user.abort()
    expect(upstream.seen.length).toBe(before)
  })

  it('refuses a declared length over the limit before reading the body', async () => {
    const admin = { authorization: `Bearer ${await keys.tokenFor('admin')}` }
    const big = stalledUpload(base, admin, 26 * 1024 * 1024)
    const res = await big.response
    expect(res.statusCode).toBe(413)
    big.abort()
  })

  it('streams an upload through unchanged', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024)
    for (let i = 0; i < body.length; i += 4096) body[i] = i % 251
    const res = await fetch(`${base}${UPLOAD}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await keys.tokenFor('admin')}`,
        'content-type': 'application/octet-stream',
      },
      body,
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      service: 'media',
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    })
  })

  it('lets only so many uploads stream at once, and frees a place when one ends', async () => {
    const admin = { authorization: `Bearer ${await keys.tokenFor('admin')}` }
    const uploadsSeen = () => upstream.seen.filter((r) => r.includes('upload')).length
    const before = uploadsSeen()
    const first = stalledUpload(base, admin, 10 * 1024 * 1024, 64 * 1024)
    const second = stalledUpload(base, admin, 10 * 1024 * 1024, 64 * 1024)
    // Both are streaming (the stand-in sees them) before the third arrives.
    await expect.poll(uploadsSeen).toBe(before + 2)
    const third = stalledUpload(base, admin, 10 * 1024 * 1024, 64 * 1024)
    const busy = await third.response
    expect(busy.statusCode).toBe(503)
    expect(busy.headers['retry-after']).toBeTruthy()
    expect((await json(busy)).error?.code).toBe('uploads_busy')
    third.abort()

    first.abort()
    await expect
      .poll(async () => {
        const next = stalledUpload(base, admin, 1024, 1024)
        const status = (await next.response).statusCode
        next.abort()
        return status
      })
      .toBe(200)
    second.abort()
  })
})

describe('the forwarding itself', () => {
  let base: string
  const seen: IncomingMessage['headers'][] = []
  const urls: string[] = []
  let answered = 0
  let busy = 0
  let keys: TestKeys
  const env: Record<string, string> = {}
  beforeAll(async () => {
    keys = await createTestKeys()
    for (const name of SERVICES) {
      const server = createServer((req, res) => {
        seen.push(req.headers)
        urls.push(req.url ?? '')
        const answer = () => {
          answered++
          res.setHeader('keep-alive', 'timeout=99')
          res.setHeader('x-answer', name)
          res.setHeader('content-type', 'application/json')
          res.end('{"ok":true}')
        }
        if (req.url?.includes('busy=1')) {
          busy++
          res.statusCode = 503
          res.setHeader('content-type', 'application/json')
          res.end('{"error":{"code":"busy","message":"Busy"}}')
        } else if (req.url?.includes('slow=1')) setTimeout(answer, 300)
        else answer()
      })
      env[`${name.toUpperCase()}_URL`] = await listen(server)
    }
    base = await gateway(env, keys)
  })

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { headers })
      req.on('response', resolve)
      req.on('error', reject)
      req.end()
    })

  it("passes on the message's own headers, not the connection's, both ways", async () => {
    const res = await get('/api/sidereal-time/auto?lat=1&lng=2', {
      connection: 'x-hop',
      'x-hop': 'for the gateway only',
      'x-end': 'for the service',
      'proxy-connection': 'keep-alive',
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-answer']).toBe('astro')
    expect(res.headers['keep-alive']).not.toBe('timeout=99')
    res.resume()
    const headers = seen.at(-1) ?? {}
    expect(headers['x-end']).toBe('for the service')
    expect(headers['x-hop']).toBeUndefined()
    expect(headers['proxy-connection']).toBeUndefined()
    expect(headers['x-request-id']).toBe(res.headers['x-request-id'])
    expect(headers['x-forwarded-for']).toBe('127.0.0.1')
  })

  it('drops the answer of a caller who has gone, and keeps serving', async () => {
    const before = answered
    const req = httpRequest(`${base}/api/sidereal-time/auto?lat=1&lng=2&slow=1`)
    req.on('error', () => undefined)
    req.end()
    await new Promise((r) => setTimeout(r, 50))
    req.destroy()
    // The service answers after the caller has gone: the gateway must neither crash nor hang.
    await expect.poll(() => answered, { timeout: 2_000 }).toBe(before + 1)
    await new Promise((r) => setTimeout(r, 50))
    const res = await get('/api/sidereal-time/auto?lat=1&lng=2')
    expect(res.statusCode).toBe(200)
    res.resume()
  })

  it("passes a busy service's 503 on at once, asking it once", async () => {
    // A proxy that retries a GET on 503 multiplies the load on the service that said it is
    // overloaded (reply-from asked up to 11 times, with waits between).
    const started = performance.now()
    const res = await get('/api/sidereal-time/auto?lat=1&lng=2&busy=1')
    expect(res.statusCode).toBe(503)
    res.resume()
    expect(busy).toBe(1)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it("puts a service URL's path before every path sent to it", async () => {
    const prefixed = await gateway({ ...env, ASTRO_URL: `${env.ASTRO_URL}/astro//` }, keys)
    const res = await fetch(`${prefixed}/api/sidereal-time/auto?lat=1&lng=2`)
    expect(res.status).toBe(200)
    expect(urls.at(-1)).toBe('/astro/api/sidereal-time/auto?lat=1&lng=2')
  })
})
