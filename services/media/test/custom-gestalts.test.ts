import { randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import Fastify from 'fastify'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import { createStorage } from '@crv/kit/storage'
import type { ObjectStorage } from '@crv/kit/storage'
import mediaApp from '../src/app.ts'
import { loadMediaConfig } from '../src/config.ts'
import type { MediaConfig } from '../src/config.ts'
import { sweepPendingDeletions } from '../src/custom-gestalts/deletions.ts'
import { pendingDeletionKeys } from '../src/custom-gestalts/repository.ts'

type SpeechMode = 'ok' | 'busy' | 'down' | 'limited' | 'broken' | 'not-audio'

/**
 * A local stand-in for the speech service's `POST /api/ai/speech`: answers with recognisable
 * bytes per word, or fails the way the real one can, and records what it was sent.
 */
async function speechStandIn() {
  const calls: {
    body: unknown
    authorization: string | undefined
    forwardedFor?: string | undefined
  }[] = []
  let mode: SpeechMode = 'ok'
  const server = Fastify()
  server.post('/api/ai/speech', async (request, reply) => {
    calls.push({
      body: request.body,
      authorization: request.headers.authorization,
      forwardedFor: request.headers['x-forwarded-for'] as string | undefined,
    })
    const error = (status: number, code: string) =>
      reply.code(status).send({ error: { code, message: code } })
    switch (mode) {
      case 'busy':
        return error(503, 'speech_busy')
      case 'down':
        return error(502, 'upstream_unavailable')
      case 'limited':
        return reply
          .header('retry-after', '7')
          .code(429)
          .send({ error: { code: 'rate_limited', message: 'slow down' } })
      case 'broken':
        return error(500, 'internal_error')
      case 'not-audio':
        return reply.type('text/html').send('<html></html>')
      default: {
        const { word } = request.body as { word: string }
        return reply.type('audio/mpeg').send(Buffer.from(`ID3 mp3 of ${word}`))
      }
    }
  })
  const address = await server.listen({ host: '127.0.0.1', port: 0 })
  return {
    url: address,
    calls,
    setMode: (next: SpeechMode) => {
      mode = next
    },
    close: () => server.close(),
  }
}

describe('custom gestalts', () => {
  let app: FastifyInstance
  let keys: TestKeys
  let config: MediaConfig
  let storage: ObjectStorage
  let speech: Awaited<ReturnType<typeof speechStandIn>>

  beforeAll(async () => {
    speech = await speechStandIn()
    const built = await buildTestService(mediaApp, loadMediaConfig, {
      DATABASE_URL: testDatabaseUrl(),
      AI_URL: speech.url,
    })
    app = built.app
    keys = built.keys
    config = built.config
    storage = createStorage(config)
  })
  afterAll(async () => {
    await app.close()
    await speech.close()
  })
  afterEach(() => speech.setMode('ok'))

  async function user() {
    const id = randomUUID()
    const token = await keys.tokenFor('user', id)
    const headers = { authorization: `Bearer ${token}` }
    return {
      id,
      token,
      generate: (payload: object) =>
        app.inject({ method: 'POST', url: '/api/generate-audio', headers, payload }),
      list: () => app.inject({ method: 'GET', url: '/api/custom-words', headers }),
      remove: (id: number) =>
        app.inject({ method: 'DELETE', url: `/api/custom-words/${id}`, headers }),
      deleteFile: (fileUrl: string) =>
        app.inject({
          method: 'POST',
          url: '/api/delete-firebase-file',
          headers,
          payload: { fileUrl },
        }),
    }
  }

  const objectKeyOf = (audioUrl: string) =>
    decodeURIComponent(/\/o\/([^?]+)\?/.exec(audioUrl)?.[1] ?? '')
  const play = (audioUrl: string) => app.inject({ method: 'GET', url: audioUrl })
  const words = (res: LightMyRequestResponse) =>
    (res.json() as { word: string }[]).map((w) => w.word)

  it('voices a word through the speech service and stores it in the user folder', async () => {
    const alice = await user()
    const res = await alice.generate({ word: '  moving water ', voiceId: 'default' })
    expect(res.statusCode).toBe(201)
    const created = res.json()
    expect(created).toMatchObject({ word: 'moving water', userId: alice.id })
    expect(created.id).toBeGreaterThan(0)
    expect(created.audioUrl).toMatch(
      new RegExp(`^/api/storage/o/custom_audio%2F${alice.id}%2F[a-f0-9]{32}\\.mp3\\?alt=media$`),
    )
    // The caller's token and address went along, so speech applies its per-user and per-IP
    // limits to the caller rather than to this service.
    expect(speech.calls.at(-1)).toEqual({
      body: { word: 'moving water', language: 'en' },
      authorization: `Bearer ${alice.token}`,
      forwardedFor: '127.0.0.1',
    })
    const clip = await play(created.audioUrl)
    expect(clip.statusCode).toBe(200)
    expect(clip.headers['content-type']).toBe('audio/mpeg')
    expect(clip.headers['cache-control']).toContain('immutable')
    expect(clip.rawPayload.toString()).toBe('ID3 mp3 of moving water')
    const part = await app.inject({
      url: created.audioUrl,
      headers: { range: 'bytes=0-2' },
    })
    expect(part.statusCode).toBe(206)
    expect(part.rawPayload.toString()).toBe('ID3')
  })

  it('does not add the same word twice for a user, in any case', async () => {
    const alice = await user()
    const first = await alice.generate({ word: 'Energy Ball' })
    const callsBefore = speech.calls.length
    const again = await alice.generate({ word: 'energy BALL' })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(first.json())
    expect(speech.calls.length).toBe(callsBefore)
    expect(words(await alice.list())).toEqual(['Energy Ball'])
    // Another user's same word is theirs alone.
    const bob = await user()
    const bobs = await bob.generate({ word: 'energy ball' })
    expect(bobs.statusCode).toBe(201)
    expect(bobs.json().id).not.toBe(first.json().id)
  })

  it.each([
    ['an empty word', { word: '' }],
    ['a blank word', { word: '   ' }],
    ['whitespace only', { word: '\t\n ' }],
  ])('refuses %s with "Please enter a word or phrase"', async (_name, payload) => {
    const alice = await user()
    const res = await alice.generate(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({
      code: 'word_required',
      message: 'Please enter a word or phrase',
    })
    expect((await alice.list()).json()).toEqual([])
  })

  it('refuses a word over 30 characters, a missing word and unknown fields', async () => {
    const alice = await user()
    for (const payload of [{ word: 'x'.repeat(31) }, {}, { word: 'sea', extra: 1 }]) {
      const res = await alice.generate(payload)
      expect(res.statusCode).toBe(400)
      expect(res.json().error.code).toBe('invalid_request')
    }
    expect((await alice.generate({ word: 'y'.repeat(30) })).statusCode).toBe(201)
  })

  it("needs sign-in, and acts for the token's user whatever userId is sent", async () => {
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/generate-audio',
      payload: { word: 'sea' },
    })
    expect(anonymous.statusCode).toBe(401)
    expect((await app.inject('/api/custom-words')).statusCode).toBe(401)
    const alice = await user()
    const bob = await user()
    // A userId in the request is ignored: the word is Alice's, whoever the body names.
    const made = await alice.generate({ word: 'sea', userId: bob.id })
    expect(made.statusCode).toBe(201)
    expect(made.json().userId).toBe(alice.id)
    expect(words(await bob.list())).toEqual([])
    const listAsBob = await app.inject({
      url: `/api/custom-words?userId=${bob.id}`,
      headers: { authorization: `Bearer ${alice.token}` },
    })
    expect(listAsBob.statusCode).toBe(200)
    expect(words(listAsBob)).toEqual(['sea'])
  })

  it('lists only the caller own words, oldest first', async () => {
    const alice = await user()
    const bob = await user()
    await alice.generate({ word: 'mountain' })
    await bob.generate({ word: 'river' })
    await alice.generate({ word: 'city' })
    expect(words(await alice.list())).toEqual(['mountain', 'city'])
    expect(words(await bob.list())).toEqual(['river'])
  })

  it('deletes a word and its clip; others cannot delete it', async () => {
    const alice = await user()
    const bob = await user()
    const created = (await alice.generate({ word: 'volcano' })).json()
    const byBob = await bob.remove(created.id)
    expect(byBob.statusCode).toBe(404)
    expect(byBob.json().error.message).toBe('Custom gestalt not found')
    expect(words(await alice.list())).toEqual(['volcano'])
    expect((await play(created.audioUrl)).statusCode).toBe(200)

    expect((await alice.remove(created.id)).statusCode).toBe(204)
    expect((await alice.list()).json()).toEqual([])
    expect(await storage.head(objectKeyOf(created.audioUrl))).toBeNull()
    expect((await play(created.audioUrl)).statusCode).toBe(404)
    expect(await pendingDeletionKeys(app.db)).not.toContain(objectKeyOf(created.audioUrl))
    expect((await alice.remove(created.id)).statusCode).toBe(404)
  })

  it('keeps retrying the clip deletion while storage fails, and finishes it later', async () => {
    const alice = await user()
    const created = (await alice.generate({ word: 'glacier' })).json()
    const key = objectKeyOf(created.audioUrl)
    const file = join(config.DATA_DIR, 'objects', key)
    // A real storage fault: the object's path became a directory the store cannot remove.
    await rm(file)
    await mkdir(join(file, 'stuck'), { recursive: true })

    expect((await alice.remove(created.id)).statusCode).toBe(204)
    expect((await alice.list()).json()).toEqual([])
    expect(await pendingDeletionKeys(app.db)).toContain(key)

    const deps = { db: app.db, storage, log: app.log }
    const due = () =>
      app.db.execute(
        sql`UPDATE media.pending_object_deletions SET next_attempt_at = now() WHERE object_key = ${key}`,
      )
    await due()
    await sweepPendingDeletions(deps)
    expect(await pendingDeletionKeys(app.db)).toContain(key)
    const [row] = (
      await app.db.execute(
        sql`SELECT attempts, next_attempt_at > now() AS later FROM media.pending_object_deletions WHERE object_key = ${key}`,
      )
    ).rows as { attempts: number; later: boolean }[]
    expect(row).toEqual({ attempts: 2, later: true })

    // Storage recovers, with the object still in it: the sweep removes it.
    await rm(file, { recursive: true })
    await writeFile(file, 'ID3 mp3 of glacier')
    expect(await storage.head(key)).not.toBeNull()
    await due()
    expect(await sweepPendingDeletions(deps)).toBeGreaterThanOrEqual(1)
    expect(await storage.head(key)).toBeNull()
    expect(await pendingDeletionKeys(app.db)).not.toContain(key)
  })

  describe('POST /api/delete-firebase-file', () => {
    it('refuses a URL without an object path and a query marker', async () => {
      const alice = await user()
      for (const url of [
        'https://example.com/file.mp3',
        '/api/storage/o/custom_audio%2Fx%2Fy.mp3',
        'not a url',
        '/o/%E0%A4%A?alt=media',
      ]) {
        const res = await alice.deleteFile(url)
        expect(res.statusCode).toBe(400)
        expect(res.json().error).toEqual({
          code: 'invalid_storage_url',
          message: 'Invalid storage URL format',
        })
      }
    })

    it('deletes the caller own clip and its word, by relative or absolute URL', async () => {
      const alice = await user()
      const first = (await alice.generate({ word: 'desert' })).json()
      const second = (await alice.generate({ word: 'forest' })).json()
      expect((await alice.deleteFile(first.audioUrl)).statusCode).toBe(204)
      expect(await storage.head(objectKeyOf(first.audioUrl))).toBeNull()
      expect(words(await alice.list())).toEqual(['forest'])
      const absolute = `https://crv.example.org${second.audioUrl}&token=abc`
      expect((await alice.deleteFile(absolute)).statusCode).toBe(204)
      expect((await alice.list()).json()).toEqual([])
    })

    it('retries with the path rebuilt in the caller folder', async () => {
      const alice = await user()
      const created = (await alice.generate({ word: 'canyon' })).json()
      const fileName = objectKeyOf(created.audioUrl).split('/').pop() ?? ''
      // An original-client URL whose path names some other folder.
      const legacy = `https://firebasestorage.googleapis.com/v0/b/crv/o/uploads%2Fold%2F${fileName}?alt=media&token=t`
      expect((await alice.deleteFile(legacy)).statusCode).toBe(204)
      expect(await storage.head(objectKeyOf(created.audioUrl))).toBeNull()
      expect((await alice.list()).json()).toEqual([])

      const again = await alice.deleteFile(legacy)
      expect(again.statusCode).toBe(404)
      expect(again.json().error.code).toBe('object_not_found')
    })

    it('never deletes another user clip', async () => {
      const alice = await user()
      const bob = await user()
      const created = (await alice.generate({ word: 'island' })).json()
      const res = await bob.deleteFile(created.audioUrl)
      expect(res.statusCode).toBe(404)
      expect(await storage.head(objectKeyOf(created.audioUrl))).not.toBeNull()
      expect(words(await alice.list())).toEqual(['island'])
      expect((await bob.deleteFile(created.audioUrl)).statusCode).toBe(404)
      expect((await play(created.audioUrl)).statusCode).toBe(200)
    })
  })

  describe('when speech fails', () => {
    it.each([
      ['busy', 503, 'speech_busy'],
      ['down', 503, 'speech_unavailable'],
      ['limited', 429, 'rate_limited'],
      ['broken', 502, 'speech_failed'],
      ['not-audio', 502, 'speech_failed'],
    ] as const)('%s: answers %i (%s) and stores nothing', async (mode, status, code) => {
      const alice = await user()
      speech.setMode(mode)
      const res = await alice.generate({ word: 'tundra' })
      expect(res.statusCode).toBe(status)
      expect(res.json().error.code).toBe(code)
      if (mode === 'limited') expect(res.headers['retry-after']).toBe('7')
      expect((await alice.list()).json()).toEqual([])
      expect(await storage.list(`custom_audio/${alice.id}/`)).toEqual([])
    })

    it('answers 503 when the speech service cannot be reached', async () => {
      const closed = await speechStandIn()
      await closed.close()
      const { app: lonely, keys: lonelyKeys } = await buildTestService(mediaApp, loadMediaConfig, {
        DATABASE_URL: testDatabaseUrl(),
        AI_URL: closed.url,
      })
      try {
        const token = await lonelyKeys.tokenFor('user')
        const res = await lonely.inject({
          method: 'POST',
          url: '/api/generate-audio',
          headers: { authorization: `Bearer ${token}` },
          payload: { word: 'tundra' },
        })
        expect(res.statusCode).toBe(503)
        expect(res.json().error.code).toBe('speech_unavailable')
      } finally {
        await lonely.close()
      }
    })
  })
})
