import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import { createStorage } from '@crv/kit/storage'
import type { ObjectStorage } from '@crv/kit/storage'
import mediaApp from '../src/app.ts'
import { loadMediaConfig } from '../src/config.ts'
import { etagMatches, parseRange } from '../src/serve-object.ts'

// Stand-in bytes: the media service serves clips as stored and never decodes them.
const clip = Buffer.from(Array.from({ length: 200 }, (_, i) => i % 256))

describe('gestalt clips (GET /api/audio/{gestaltId})', () => {
  let app: FastifyInstance
  let storage: ObjectStorage

  beforeAll(async () => {
    const built = await buildTestService(mediaApp, loadMediaConfig, {
      DATABASE_URL: testDatabaseUrl(),
    })
    app = built.app
    storage = createStorage(built.config)
    // As the speech service leaves them at its start.
    await storage.put('gestalts/water.mp3', clip, { contentType: 'audio/mpeg' })
  })
  afterAll(() => app.close())

  it('serves a clip with its ETag, a long cache and byte ranges', async () => {
    const res = await app.inject('/api/audio/water')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('audio/mpeg')
    expect(res.headers.etag).toMatch(/^"/)
    expect(res.headers['cache-control']).toMatch(/public, max-age=\d{5,}/)
    expect(res.headers['accept-ranges']).toBe('bytes')
    expect(Number(res.headers['content-length'])).toBe(clip.length)
    expect(res.rawPayload.equals(clip)).toBe(true)
  })

  it('answers 304 while the ETag still matches', async () => {
    const { etag } = (await app.inject('/api/audio/water')).headers
    const again = await app.inject({
      url: '/api/audio/water',
      headers: { 'if-none-match': String(etag) },
    })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)
    const changed = await app.inject({
      url: '/api/audio/water',
      headers: { 'if-none-match': '"something-else"' },
    })
    expect(changed.statusCode).toBe(200)
  })

  it.each([
    ['bytes=0-9', 0, 9],
    ['bytes=190-', 190, 199],
    ['bytes=-5', 195, 199],
    ['bytes=150-999', 150, 199],
  ])('answers %s with 206 and that part of the clip', async (range, start, end) => {
    const res = await app.inject({ url: '/api/audio/water', headers: { range } })
    expect(res.statusCode).toBe(206)
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${clip.length}`)
    expect(res.rawPayload.equals(clip.subarray(start, end + 1))).toBe(true)
  })

  it('answers a range outside the clip with 416 in the error shape', async () => {
    const res = await app.inject({ url: '/api/audio/water', headers: { range: 'bytes=200-' } })
    expect(res.statusCode).toBe(416)
    expect(res.headers['content-range']).toBe(`bytes */${clip.length}`)
    expect(res.json().error.code).toBe('range_not_satisfiable')
  })

  it('sends the whole clip for several ranges at once', async () => {
    const res = await app.inject({
      url: '/api/audio/water',
      headers: { range: 'bytes=0-1,5-6' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.length).toBe(clip.length)
  })

  it('answers 404 for an unknown gestalt and for a clip not voiced yet', async () => {
    const unknown = await app.inject('/api/audio/banana')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('not_found')
    const notYet = await app.inject('/api/audio/energy')
    expect(notYet.statusCode).toBe(404)
    expect(notYet.json().error.message).toMatch(/not available yet/)
  })

  it('refuses an id that breaks the contract', async () => {
    const res = await app.inject('/api/audio/Water%20Fall')
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('invalid_request')
  })

  it('serves only custom clips through the storage URL route', async () => {
    const gestalt = await app.inject('/api/storage/o/gestalts%2Fwater.mp3?alt=media')
    expect(gestalt.statusCode).toBe(400)
    const traversal = await app.inject(
      `/api/storage/o/${encodeURIComponent('custom_audio/u1/../../gestalts/water.mp3')}?alt=media`,
    )
    expect(traversal.statusCode).toBe(400)
    const missing = await app.inject(
      `/api/storage/o/${encodeURIComponent('custom_audio/u1/abc.mp3')}?alt=media`,
    )
    expect(missing.statusCode).toBe(404)
  })
})

describe('byte ranges and ETags', () => {
  it('reads single ranges and ignores what it cannot serve', () => {
    expect(parseRange(undefined, 10)).toBeNull()
    expect(parseRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 })
    expect(parseRange('bytes=5-2', 10)).toBeNull()
    expect(parseRange('items=0-1', 10)).toBeNull()
    expect(parseRange('bytes=-', 10)).toBeNull()
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=-20', 10)).toEqual({ start: 0, end: 9 })
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable')
  })

  it('compares ETags weakly and accepts lists and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true)
    expect(etagMatches('W/"a"', '"a"')).toBe(true)
    expect(etagMatches('"b", "a"', '"a"')).toBe(true)
    expect(etagMatches('*', '"a"')).toBe(true)
    expect(etagMatches('"b"', '"a"')).toBe(false)
    expect(etagMatches(undefined, '"a"')).toBe(false)
  })
})
