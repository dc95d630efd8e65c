import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import authApp from '../src/app.ts'
import { loadAuthConfig } from '../src/config.ts'

let app: FastifyInstance
let adminToken: string

beforeAll(async () => {
  const built = await buildTestService(authApp, loadAuthConfig, { DATABASE_URL: testDatabaseUrl() })
  app = built.app
  adminToken = await built.keys.tokenFor('admin')
})
afterAll(() => app.close())

describe('auth service', () => {
  it('is live and ready', async () => {
    expect((await app.inject('/health')).json()).toMatchObject({ status: 'ok', service: 'auth' })
    const ready = await app.inject('/ready')
    expect(ready.statusCode).toBe(200)
    expect(ready.json().status).toBe('ready')
  })

  it('answers an unknown route with 404 in the error shape', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/auth/no-such-call',
      headers: { authorization: `Bearer ${adminToken}` },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().error.code).toBe('not_found')
  })
})
