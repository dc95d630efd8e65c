import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import { createStorage } from '@crv/kit/storage'
import mediaApp from '../src/app.ts'
import { loadMediaConfig } from '../src/config.ts'
import type { MediaConfig } from '../src/config.ts'

describe('object storage usage', () => {
  let app: FastifyInstance
  let keys: TestKeys
  let config: MediaConfig
  beforeAll(async () => {
    ;({ app, keys, config } = await buildTestService(mediaApp, loadMediaConfig, {
      DATABASE_URL: testDatabaseUrl(),
    }))
  })
  afterAll(() => app.close())

  const get = async (role: 'user' | 'admin' | null) =>
    app.inject({
      method: 'GET',
      url: '/api/admin/storage',
      headers: role ? { authorization: `Bearer ${await keys.tokenFor(role)}` } : {},
    })

  it('counts every object and byte, by area, for administrators only', async () => {
    const storage = createStorage(config)
    const put = (key: string, size: number) =>
      storage.put(key, Buffer.alloc(size, 1), { contentType: 'application/octet-stream' })
    const before = (await get('admin')).json()
    await put('gestalts/usage-test.mp3', 1000)
    await put('custom_audio/u1/usage-test.mp3', 2000)
    await put('speech/usage-test.mp3', 300)
    await put('tachistoscope/random/usage-test.jpg', 4000)
    await put('elsewhere/usage-test.bin', 50)

    const res = await get('admin')
    expect(res.statusCode).toBe(200)
    const usage = res.json()
    expect(usage.driver).toBe('fs')
    expect(usage.objects - before.objects).toBe(5)
    expect(usage.bytes - before.bytes).toBe(7350)
    const area = (prefix: string, body = usage) =>
      body.areas.find((a: { prefix: string }) => a.prefix === prefix)
    for (const [prefix, bytes] of [
      ['gestalts/', 1000],
      ['custom_audio/', 2000],
      ['speech/', 300],
      ['tachistoscope/', 4000],
      ['other', 50],
    ] as const) {
      expect(area(prefix).bytes - area(prefix, before).bytes, prefix).toBe(bytes)
    }

    expect((await get('user')).statusCode).toBe(403)
    expect((await get(null)).statusCode).toBe(401)
  })
})
