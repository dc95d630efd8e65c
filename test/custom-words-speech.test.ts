// A custom gestalt voiced by the real speech service (services/ai on its default in-process
// engine), both services signing with one test key set as the auth service would.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestService, createTestKeys, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import aiApp from '../services/ai/src/app.ts'
import { loadAiConfig } from '../services/ai/src/config.ts'
import mediaApp from '../services/media/src/app.ts'
import { loadMediaConfig } from '../services/media/src/config.ts'

describe('custom gestalts with the real speech service', () => {
  let ai: FastifyInstance
  let media: FastifyInstance
  let keys: TestKeys

  beforeAll(async () => {
    keys = await createTestKeys()
    // In-process speech (no Redis): the same engine `npm start` uses by default.
    ai = (await buildTestService(aiApp, loadAiConfig, { REDIS_URL: '' }, keys)).app
    const aiUrl = await ai.listen({ host: '127.0.0.1', port: 0 })
    media = (
      await buildTestService(
        mediaApp,
        loadMediaConfig,
        { DATABASE_URL: testDatabaseUrl(), AI_URL: aiUrl },
        keys,
      )
    ).app
  }, 60_000)
  afterAll(async () => {
    await media?.close()
    await ai?.close()
  })

  it('stores an MP3 of the word and plays it back', async () => {
    const token = await keys.tokenFor('user')
    const created = await media.inject({
      method: 'POST',
      url: '/api/generate-audio',
      headers: { authorization: `Bearer ${token}` },
      payload: { word: 'moving water' },
    })
    expect(created.statusCode).toBe(201)
    const clip = await media.inject(created.json().audioUrl)
    expect(clip.statusCode).toBe(200)
    expect(clip.headers['content-type']).toBe('audio/mpeg')
    const bytes = clip.rawPayload
    // An MP3: an ID3 tag or an MPEG audio frame header first.
    const mp3 =
      bytes.subarray(0, 3).toString('latin1') === 'ID3' ||
      (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)
    expect(mp3).toBe(true)
    expect(bytes.length).toBeGreaterThan(1000)
  }, 60_000)
})
