import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { contractOperations, DEFAULT_BODY_LIMIT } from '../src/index.ts'
import { createTestKeys } from '../src/testing/index.ts'
import type { TestKeys } from '../src/testing/index.ts'
import { serviceFor } from './helpers.ts'

let keys: TestKeys
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >
beforeAll(async () => {
  keys = await createTestKeys()
})

describe('the contract', () => {
  const ops = contractOperations()

  it('gives every operation an owner, an access level and a unique id', () => {
    expect(ops.length).toBeGreaterThan(30)
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length)
    for (const op of ops) {
      expect(['auth', 'descriptors', 'media', 'ai', 'astro', 'practice', 'gateway']).toContain(
        op.tag,
      )
      expect(['public', 'user', 'admin']).toContain(op.access)
    }
  })

  it('keeps the calls of the product spec at their paths', () => {
    const routes = new Set(ops.map((o) => `${o.method} ${o.path}`))
    for (const route of [
      'POST /api/generate-audio',
      'GET /api/descriptors/bulk',
      'POST /api/descriptors/{id}/toggle-hide',
      'DELETE /api/admin/descriptors/{id}/all-languages',
      'POST /api/sidereal-time/custom',
      'POST /api/tachistoscope/images/upload',
      'POST /api/auth/phone/verify',
      'GET /api/auth/jwks.json',
    ]) {
      expect(routes).toContain(route)
    }
  })

  it('limits bodies to 64 KiB unless an operation says otherwise', () => {
    const upload = ops.find((o) => o.path === '/api/tachistoscope/images/upload')
    expect(upload?.bodyLimit).toBeGreaterThan(DEFAULT_BODY_LIMIT)
    expect(ops.find((o) => o.path === '/api/descriptors' && o.method === 'POST')?.bodyLimit).toBe(
      DEFAULT_BODY_LIMIT,
    )
  })
})

describe('contract routes', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await serviceFor('astro', keys.verifyToken, {
      getSiderealTimeAuto: async (request) => {
        const { lat, lng } = request.query as { lat: number; lng: number }
        return {
          formatted_time: '12:00:00',
          lst_degrees: 180,
          utc_time: new Date(0).toISOString(),
          location: { latitude: lat, longitude: lng, city: null, country: null },
          lmst_degrees: 180,
          gmst_degrees: 180,
          gast_degrees: 180,
          ut1_assumed_utc: true,
        }
      },
    })
  })

  it('serves a handled operation with its query validated and coerced', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/sidereal-time/auto?lat=52.5&lng=13.4',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().location).toMatchObject({ latitude: 52.5, longitude: 13.4 })
  })

  it('refuses a bad query with 400 in the error shape, naming the field', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/sidereal-time/auto?lat=north&lng=13.4',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ code: 'invalid_request' })
    expect(res.json().error.message).toMatch(/lat/)
  })

  it('refuses unknown query fields instead of dropping them', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/sidereal-time/auto?lat=1&lng=2&debug=1',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toMatch(/debug/)
  })

  it('answers 501 in the error shape for an operation not built yet', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/sidereal-time/custom', payload: {} })
    expect(res.statusCode).toBe(501)
    expect(res.json()).toEqual({
      error: {
        code: 'not_implemented',
        message: 'calculateSiderealTimeCustom is not available yet',
      },
    })
  })

  it('refuses a text/plain body rather than skipping validation', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/sidereal-time/custom',
      headers: { 'content-type': 'text/plain' },
      payload: 'location=Berlin',
    })
    expect(res.statusCode).toBe(415)
    expect(res.json().error.code).toBe('unsupported_media_type')
  })

  it('refuses malformed JSON with 400, not 500', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/sidereal-time/custom',
      headers: { 'content-type': 'application/json' },
      payload: '{"location":',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('invalid_request')
  })

  it('refuses a body over the limit with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/sidereal-time/custom',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ location: 'x'.repeat(DEFAULT_BODY_LIMIT) }),
    })
    expect(res.statusCode).toBe(413)
    expect(res.json().error.code).toBe('payload_too_large')
  })

  it('answers unknown paths with 404 in the error shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nope' })
    expect(res.statusCode).toBe(404)
    expect(res.json().error.code).toBe('not_found')
  })

  it('refuses to start with a handler that has no operation', async () => {
    await expect(
      serviceFor('astro', keys.verifyToken, { getJwks: async () => ({}) }),
    ).rejects.toThrow(/Handlers without a contract operation in tag astro: getJwks/)
  })

  it('turns a response that breaks the contract into a 500 in tests', async () => {
    const broken = await serviceFor('astro', keys.verifyToken, {
      getSiderealTimeAuto: async () => ({ formatted_time: 'x', lst_degrees: 'not a number' }),
    })
    const res = await broken.inject({ method: 'GET', url: '/api/sidereal-time/auto?lat=1&lng=2' })
    expect(res.statusCode).toBe(500)
    await broken.close()
  })
})

describe('access from the verified token', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await serviceFor('descriptors', keys.verifyToken, {
      listUserDescriptors: async () => [],
      listPendingDescriptors: async () => [],
    })
  })
  const get = (url: string, token?: string) =>
    app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} })

  it('gives 401 to anonymous callers of user and admin operations', async () => {
    for (const url of ['/api/user/descriptors', '/api/admin/pending-descriptors']) {
      const res = await get(url)
      expect(res.statusCode).toBe(401)
      expect(res.json().error.code).toBe('unauthorized')
    }
  })

  it('lets a user in to user operations and gives 403 on admin ones', async () => {
    const token = await keys.tokenFor('user')
    expect((await get('/api/user/descriptors', token)).statusCode).toBe(200)
    const res = await get('/api/admin/pending-descriptors', token)
    expect(res.statusCode).toBe(403)
    expect(res.json().error.code).toBe('forbidden')
  })

  it('refuses an id that coerces to Infinity before any handler sees it', async () => {
    const res = await app.inject({
      method: 'DELETE',
      url: '/api/descriptors/1e309',
      headers: { authorization: `Bearer ${await keys.tokenFor('admin')}` },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ code: 'invalid_parameter' })
  })

  it('lets an admin in to admin operations', async () => {
    expect(
      (await get('/api/admin/pending-descriptors', await keys.tokenFor('admin'))).statusCode,
    ).toBe(200)
  })

  it('accepts the raw token some spec calls send without "Bearer"', async () => {
    const token = await keys.tokenFor('user')
    const res = await app.inject({
      method: 'GET',
      url: '/api/user/descriptors',
      headers: { authorization: token },
    })
    expect(res.statusCode).toBe(200)
  })

  it('refuses an alg:none token that claims admin', async () => {
    const claims = payloadOf(await keys.tokenFor('user'))
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const forged = `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ...claims, role: 'admin' })}.`
    expect((await get('/api/admin/pending-descriptors', forged)).statusCode).toBe(401)
  })

  it('refuses a token whose payload was changed after signing', async () => {
    const token = await keys.tokenFor('user')
    const [h, , s] = token.split('.')
    const claims = payloadOf(token)
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${s}`
    expect((await get('/api/admin/pending-descriptors', tampered)).statusCode).toBe(401)
  })

  it('refuses expired tokens, tokens from another key and garbage', async () => {
    const other = await createTestKeys()
    const expired = await keys.sign(
      { role: 'user' },
      { expiresIn: Math.floor(Date.now() / 1000) - 60 },
    )
    const res = await get('/api/user/descriptors', expired)
    expect(res.statusCode).toBe(401)
    expect(res.json().error.code).toBe('token_expired')
    expect((await get('/api/user/descriptors', await other.tokenFor('admin'))).statusCode).toBe(401)
    expect((await get('/api/user/descriptors', 'not-a-token')).statusCode).toBe(401)
  })

  it('ignores a userId the client sends: the caller is the token’s subject', async () => {
    // The spec's client still sends its own id; identity never comes from it (the handlers
    // read request.user), so naming someone else neither refuses nor reaches their data.
    const token = await keys.tokenFor('user', 'user-a')
    expect((await get('/api/user/descriptors?userId=user-b', token)).statusCode).toBe(200)
    expect((await get('/api/user/descriptors?userId=user-a', token)).statusCode).toBe(200)
    expect((await get('/api/user/descriptors?userId=user-b')).statusCode).toBe(401)
  })

  it('refuses a token without a known role', async () => {
    const token = await keys.sign({ role: 'superuser' })
    expect((await get('/api/user/descriptors', token)).statusCode).toBe(401)
  })
})
