// Issue [23], item 7: a target image is stored re-encoded, with none of what the uploaded file
// carried besides its pixels.
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestService,
  endsAtImageEnd,
  hiddenTextIn,
  taggedJpeg,
  taggedPng,
  testDatabaseUrl,
} from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import practiceApp from '../src/app.ts'
import { loadPracticeConfig } from '../src/config.ts'

let app: FastifyInstance
let keys: TestKeys
beforeAll(async () => {
  const built = await buildTestService(practiceApp, loadPracticeConfig, {
    DATABASE_URL: testDatabaseUrl(),
    ASTRO_URL: 'http://127.0.0.1:9',
  })
  app = built.app
  keys = built.keys
})
afterAll(() => app.close())

describe('target images', () => {
  it('serves an uploaded target with no comment, GPS text, private chunk or trailing bytes', async () => {
    const admin = await keys.tokenFor('admin')
    const headers = { authorization: `Bearer ${admin}` }
    const pool = await app.inject({
      method: 'POST',
      url: '/api/admin/practice/pools',
      headers,
      payload: { name: `Tagged ${randomUUID()}` },
    })
    const poolId = (pool.json() as { id: string }).id
    const files = [await taggedJpeg(), await taggedPng()]
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/practice/targets',
      headers,
      payload: {
        poolId,
        targets: files.map((file, i) => ({
          image: file.toString('base64'),
          title: `Tagged ${i}`,
          feedback: 'A picture that carried hidden text.',
          tags: ['cold'],
          licence: 'own',
          source: 'made by the test',
        })),
      },
    })
    expect(created.statusCode, created.body).toBe(200)
    const targets = (created.json() as { created: { imageUrl: string }[] }).created
    expect(targets).toHaveLength(2)
    for (const file of files) expect(hiddenTextIn(file)).not.toEqual([])
    for (const { imageUrl } of targets) {
      const image = await app.inject({ method: 'GET', url: imageUrl, headers })
      expect(image.statusCode).toBe(200)
      expect(hiddenTextIn(image.rawPayload)).toEqual([])
      expect(endsAtImageEnd(image.rawPayload)).toBe(true)
    }
  })
})
