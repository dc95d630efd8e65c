import { describe, expect, it } from 'vitest'
import Fastify from 'fastify'
import { databasePlugin } from '../src/db.ts'
import {
  basePlugin,
  baseConfigShape,
  fastifyBaseOptions,
  loadConfig,
  AppError,
} from '../src/index.ts'
import { createTestKeys, testDatabaseUrl, testEnv } from '../src/testing/index.ts'

async function app(databaseUrl?: string) {
  const config = loadConfig(baseConfigShape('kit-test', 0), testEnv())
  const instance = Fastify(fastifyBaseOptions(config))
  await instance.register(basePlugin, { config, verifyToken: (await createTestKeys()).verifyToken })
  if (databaseUrl) {
    await instance.register(databasePlugin, {
      url: databaseUrl,
      schema: 'kit_service_test',
      migrationsDir: '/nonexistent',
    })
  }
  instance.get('/boom', async () => {
    throw new Error('secret internals: password=hunter2')
  })
  instance.get('/teapot', async () => {
    throw new AppError('no_coffee', 418, 'This is a teapot', { brew: 'tea' })
  })
  instance.get('/items/:id', async () => ({ ok: true }))
  await instance.ready()
  return instance
}

describe('service base', () => {
  it('reports liveness with the service name', async () => {
    const a = await app()
    const res = await a.inject('/health')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ status: 'ok', service: 'kit-test' })
    expect(res.headers['x-request-id']).toBeTruthy()
  })

  it('keeps a request id given by the gateway', async () => {
    const a = await app()
    const res = await a.inject({ url: '/health', headers: { 'x-request-id': 'gateway-id-123' } })
    expect(res.headers['x-request-id']).toBe('gateway-id-123')
  })

  it('is ready when its database answers', async () => {
    const a = await app(testDatabaseUrl())
    const res = await a.inject('/ready')
    expect(res.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } })
    await a.close()
  })

  it('is not ready (503) when its database is unreachable', async () => {
    const a = await app()
    a.readiness.set('database', async () => {
      throw new Error('connect ECONNREFUSED')
    })
    const res = await a.inject('/ready')
    expect(res.statusCode).toBe(503)
    expect(res.json().checks.database).toMatch(/ECONNREFUSED/)
  })

  it('hides the internals of a 500', async () => {
    const res = await (await app()).inject('/boom')
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({
      error: {
        code: 'internal_error',
        message: 'Something went wrong on our side. Please try again.',
      },
    })
    expect(res.body).not.toMatch(/hunter2/)
  })

  it('passes an AppError through in the error shape', async () => {
    const res = await (await app()).inject('/teapot')
    expect(res.statusCode).toBe(418)
    expect(res.json()).toEqual({
      error: { code: 'no_coffee', message: 'This is a teapot', details: { brew: 'tea' } },
    })
  })

  it('answers addresses the router refuses in the error shape', async () => {
    const a = await app()
    const long = await a.inject(`/items/${'a'.repeat(500)}`)
    expect(long.statusCode).toBe(414)
    expect(long.json().error.code).toBe('url_too_long')
    const bad = await a.inject('/items/%E0%A4%A')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBe('bad_url')
  })
})
