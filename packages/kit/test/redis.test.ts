import { describe, expect, it } from 'vitest'
import Fastify from 'fastify'
import {
  basePlugin,
  baseConfigShape,
  createRedis,
  fastifyBaseOptions,
  loadConfig,
  redisPlugin,
} from '../src/index.ts'
import { createTestKeys, testEnv, testRedisUrl } from '../src/testing/index.ts'
import { freePort } from '../../../scripts/lib/ports.ts'

async function appWith(url: string | undefined) {
  const config = loadConfig(baseConfigShape('kit-redis-test', 0), testEnv())
  const app = Fastify(fastifyBaseOptions(config))
  await app.register(basePlugin, { config, verifyToken: (await createTestKeys()).verifyToken })
  await app.register(redisPlugin, { url })
  await app.ready()
  return app
}

describe('redis', () => {
  it('is optional: without a URL there is no client and nothing to check', async () => {
    const app = await appWith(undefined)
    expect(app.redis).toBeNull()
    expect((await app.inject('/ready')).json()).toMatchObject({ status: 'ready', checks: {} })
    await app.close()
  })

  it('fails fast, without hanging, while Redis is unreachable', async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`)
    redis.on('error', () => {})
    const started = performance.now()
    await expect(redis.ping()).rejects.toThrow()
    expect(performance.now() - started).toBeLessThan(5_000)
    redis.disconnect()
  })

  it('reports an unreachable Redis as not ready', async () => {
    const app = await appWith(`redis://127.0.0.1:${await freePort()}`)
    const res = await app.inject('/ready')
    expect(res.statusCode).toBe(503)
    expect(res.json().checks.redis).not.toBe('ok')
    await app.close()
  })

  it.skipIf(!testRedisUrl())('connects to the configured Redis and reports it ready', async () => {
    const app = await appWith(testRedisUrl())
    expect(await app.redis?.ping()).toBe('PONG')
    expect((await app.inject('/ready')).json().checks).toEqual({ redis: 'ok' })
    await app.close()
  })
})
