import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { gestaltClipKey } from '@crv/kit'
import { buildTestService } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import { createStorage } from '@crv/kit/storage'
import aiApp from '../src/app.ts'
import { loadAiConfig } from '../src/config.ts'
import type { AiConfig } from '../src/config.ts'
import { GESTALT_WORDS } from '../src/gestalts/gestalts.ts'
import { readObject } from '../src/speech/speech.ts'
import { loadWordFacts } from '../src/vocabulary.ts'
import { AUDIBLE_RMS, decodeMp3 } from './helpers.ts'

// In-process speech (no Redis): the queue tests cover the same calls through BullMQ.
let app: FastifyInstance
let keys: TestKeys
let config: AiConfig
let user: string
beforeAll(async () => {
  const built = await buildTestService(aiApp, loadAiConfig, {
    REDIS_URL: undefined,
    AI_RATE_LIMIT_ANONYMOUS: '1000',
  })
  app = built.app
  keys = built.keys
  config = built.config
  user = await keys.tokenFor('user')
}, 60_000)
afterAll(() => app.close())

const speech = (payload: unknown, token?: string, url = '/api/ai/speech') =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })

describe('POST /api/ai/speech', () => {
  it('speaks a German word as MP3 and serves it from the cache the second time', async () => {
    const first = await speech({ word: 'Wasser', language: 'de' })
    expect(first.statusCode).toBe(200)
    expect(first.headers['content-type']).toBe('audio/mpeg')
    expect(first.headers['x-speech-cache']).toBe('miss')
    const audio = await decodeMp3(first.rawPayload)
    expect(audio.seconds).toBeGreaterThan(0.2)
    expect(audio.rms).toBeGreaterThan(AUDIBLE_RMS)

    const jobsBefore = (await app.speech.status()).completed
    const second = await speech({ word: '  Wasser ', language: 'de' })
    expect(second.headers['x-speech-cache']).toBe('hit')
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true)
    // No job ran for the repeat.
    expect((await app.speech.status()).completed).toBe(jobsBefore)
  })

  it('speaks a custom gestalt phrase of 30 characters for a signed-in caller', async () => {
    const res = await speech({ word: 'moving water under a stone arc', language: 'en' }, user)
    expect(res.statusCode).toBe(200)
    expect((await decodeMp3(res.rawPayload)).seconds).toBeGreaterThan(0.5)
  })

  it.each([
    [{ word: '', language: 'en' }, 'invalid_request'],
    [{ word: '   ', language: 'en' }, 'invalid_request'],
    [{ word: 'x'.repeat(61), language: 'en' }, 'invalid_request'],
    [{ word: 'bell\u0007', language: 'en' }, 'invalid_request'],
    [{ word: 'water' }, 'invalid_request'],
    [{ word: 'water', language: 'en', voice: 'x' }, 'invalid_request'],
    [{ word: 'water', language: 'xx' }, 'unsupported_language'],
    [{ word: '水', language: 'zh' }, 'unsupported_language'],
    [{ word: 'みず', language: 'ja' }, 'unsupported_language'],
  ])('refuses %j with 400 %s', async (payload, code) => {
    const res = await speech(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe(code)
  })

  it('says which languages speech knows when refusing ja or zh', async () => {
    const res = await speech({ word: '水', language: 'zh' })
    expect(res.json().error.message).toBe(
      'Speech and example sentences are available in en, de, fr, es, it only',
    )
  })

  it('says what is wrong with a blank word', async () => {
    expect((await speech({ word: ' ', language: 'en' })).json().error.message).toBe(
      'Please enter a word or phrase',
    )
  })
})

describe('POST /api/ai/sentence-with-speech', () => {
  it('writes an Italian sentence with the descriptor and speaks it', async () => {
    const res = await speech(
      { descriptor: 'animale', language: 'it' },
      undefined,
      '/api/ai/sentence-with-speech',
    )
    expect(res.statusCode).toBe(200)
    const body = res.json<{ sentence: string; audioData: string }>()
    // One of the concept's reviewed sentences, as the vocabulary ships them.
    const shipped = loadWordFacts(config.VOCABULARY_DIR).sentences('animale', 'it')
    expect(shipped.length).toBeGreaterThanOrEqual(2)
    expect(shipped).toContain(body.sentence)
    const audio = await decodeMp3(Buffer.from(body.audioData, 'base64'))
    expect(audio.seconds).toBeGreaterThan(1)
    expect(audio.rms).toBeGreaterThan(AUDIBLE_RMS)
  })

  it('refuses Chinese clearly', async () => {
    const res = await speech(
      { descriptor: '水', language: 'zh' },
      undefined,
      '/api/ai/sentence-with-speech',
    )
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('unsupported_language')
  })
})

describe('GET /api/ai/queue', () => {
  it('is for administrators only', async () => {
    const anonymous = await app.inject('/api/ai/queue')
    expect(anonymous.statusCode).toBe(401)
    const asUser = await app.inject({
      url: '/api/ai/queue',
      headers: { authorization: `Bearer ${user}` },
    })
    expect(asUser.statusCode).toBe(403)
    expect(asUser.json().error.code).toBe('forbidden')
  })

  it('reports the in-process runner without Redis', async () => {
    const res = await app.inject({
      url: '/api/ai/queue',
      headers: { authorization: `Bearer ${await keys.tokenFor('admin')}` },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ mode: 'in-process', workers: 1, waiting: 0, active: 0 })
  })
})

describe('gestalt clips', () => {
  it('are stored for the ideogram page before the service is ready', async () => {
    expect((await app.inject('/ready')).statusCode).toBe(200)
    const storage = createStorage(config)
    for (const id of Object.keys(GESTALT_WORDS) as (keyof typeof GESTALT_WORDS)[]) {
      const mp3 = await readObject(storage, gestaltClipKey(id))
      expect(mp3, id).not.toBeNull()
      const audio = await decodeMp3(mp3 ?? Buffer.alloc(0))
      expect(audio.seconds, id).toBeGreaterThan(0.2)
      expect(audio.rms, id).toBeGreaterThan(AUDIBLE_RMS)
    }
  })

  it('are not made again when present', async () => {
    const storage = createStorage(config)
    const before = await storage.head(gestaltClipKey('man'))
    const again = await buildTestService(aiApp, loadAiConfig, { DATA_DIR: config.DATA_DIR })
    await again.app.close()
    expect((await storage.head(gestaltClipKey('man')))?.etag).toBe(before?.etag)
    expect((await storage.head(gestaltClipKey('man')))?.lastModified).toEqual(before?.lastModified)
  })
})

describe('rate limits', () => {
  let limited: FastifyInstance
  let limitedKeys: TestKeys
  beforeAll(async () => {
    const built = await buildTestService(aiApp, loadAiConfig, {
      REDIS_URL: undefined,
      AI_RATE_LIMIT_ANONYMOUS: '2',
      AI_RATE_LIMIT_USER: '4',
      AI_RATE_LIMIT_IP: '100',
    })
    limited = built.app
    limitedKeys = built.keys
  }, 60_000)
  afterAll(() => limited.close())

  const call = (token?: string) =>
    limited.inject({
      method: 'POST',
      url: '/api/ai/speech',
      payload: { word: 'stone', language: 'en' },
      headers: token ? { authorization: `Bearer ${token}` } : {},
    })

  it('lets an anonymous caller fewer requests than a signed-in one, answering 429', async () => {
    expect((await call()).statusCode).toBe(200)
    expect((await call()).statusCode).toBe(200)
    const refused = await call()
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error.code).toBe('rate_limited')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)

    // The same address signed in has its own, larger allowance.
    const token = await limitedKeys.tokenFor('user')
    for (let i = 0; i < 4; i++) expect((await call(token)).statusCode).toBe(200)
    expect((await call(token)).statusCode).toBe(429)
    // Another user is not affected by the first one's count.
    expect((await call(await limitedKeys.tokenFor('user'))).statusCode).toBe(200)
  })
})
