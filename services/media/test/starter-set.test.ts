// The tachistoscope's starter set (issue [25] item 6): the pictures shipped in starter-set/ are
// as their manifest says and need no credit on screen, and a fresh installation's library gets
// them at its first start, once: a second start adds none, a picture an administrator deleted
// stays deleted, their own uploads are untouched, and a storage that lost its objects gets the
// starter pictures back.
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { FastifyInstance } from 'fastify'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'
import { buildTestService, createTestKeys } from '@crv/kit/testing'
import mediaApp from '../src/app.ts'
import { loadMediaConfig } from '../src/config.ts'
import { readStarterManifest } from '../src/images/starter-set.ts'

const starterDir = join(import.meta.dirname, '../starter-set')
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

describe('the starter set as shipped', () => {
  it('holds 20 to 40 pictures in both categories, each file as listed, none needing a credit', async () => {
    const pictures = await readStarterManifest(starterDir)
    expect(pictures.length).toBeGreaterThanOrEqual(20)
    expect(pictures.length).toBeLessThanOrEqual(40)
    expect(new Set(pictures.map((p) => p.category))).toEqual(new Set(['random', 'people']))
    expect(new Set(pictures.map((p) => p.slug)).size).toBe(pictures.length)
    for (const picture of pictures) {
      const bytes = await readFile(join(starterDir, picture.file))
      const { width, height, format } = await sharp(bytes).metadata()
      expect({
        slug: picture.slug,
        bytes: bytes.length,
        sha256: sha256(bytes),
        width,
        height,
      }).toEqual({
        slug: picture.slug,
        bytes: picture.bytes,
        sha256: picture.sha256,
        width: picture.width,
        height: picture.height,
      })
      expect(format, picture.slug).toBe('jpeg')
      expect(['CC0-1.0', 'public-domain'], picture.slug).toContain(picture.licence)
      expect(picture.source.length, picture.slug).toBeGreaterThan(10)
    }
  })
})

describe('a fresh installation', () => {
  it('gets the starter set at its first start and once: a second start adds none, a deletion stays, uploads stay', async () => {
    const pictures = await readStarterManifest(starterDir)
    const count = (category: string) => pictures.filter((p) => p.category === category).length
    // A database of its own: the suite's shared one has the set from other tests' starts.
    const db = await PGlite.create()
    const server = await serveEmbeddedDatabase(db, { maxConnections: 16 })
    const dataDir = await mkdtemp(join(tmpdir(), 'crv-starter-set-'))
    const emptyDir = await mkdtemp(join(tmpdir(), 'crv-starter-set-empty-'))
    const keys = await createTestKeys()
    const admin = { authorization: `Bearer ${await keys.tokenFor('admin')}` }
    const start = async (data = dataDir) =>
      (
        await buildTestService(
          mediaApp,
          loadMediaConfig,
          { DATABASE_URL: server.url, DATA_DIR: data },
          keys,
        )
      ).app
    const list = async (app: FastifyInstance, category: 'random' | 'people') => {
      const res = await app.inject({
        url: `/api/tachistoscope/images/list/${category}`,
        headers: admin,
      })
      expect(res.statusCode).toBe(200)
      return (res.json() as { id: string; filename: string; dataUrl: string }[]).map((i) => i.id)
    }
    const served = async (app: FastifyInstance, category: 'random' | 'people') => {
      const hashes = []
      for (const id of await list(app, category)) {
        const file = await app.inject(`/api/tachistoscope/files/${id}`)
        expect(file.statusCode).toBe(200)
        hashes.push(sha256(file.rawPayload))
      }
      return hashes.sort()
    }
    const shipped = (category: string) =>
      pictures
        .filter((p) => p.category === category)
        .map((p) => p.sha256)
        .sort()
    try {
      const first = await start()
      const random = await list(first, 'random')
      const people = await list(first, 'people')
      expect(random).toHaveLength(count('random'))
      expect(people).toHaveLength(count('people'))
      expect(await served(first, 'random')).toEqual(shipped('random'))

      // An administrator uploads a picture and deletes a starter one.
      const png = await sharp({
        create: { width: 64, height: 48, channels: 3, background: '#357' },
      })
        .png()
        .toBuffer()
      const upload = await first.inject({
        method: 'POST',
        url: '/api/tachistoscope/images/upload',
        headers: admin,
        payload: {
          filename: 'own.png',
          category: 'people',
          imageData: `data:image/png;base64,${png.toString('base64')}`,
          mimeType: 'image/png',
        },
      })
      expect(upload.statusCode, upload.body).toBe(201)
      const [deleted] = people
      const gone = await first.inject({
        method: 'DELETE',
        url: `/api/tachistoscope/images/${deleted}`,
        headers: admin,
      })
      expect(gone.statusCode).toBe(204)
      await first.close()

      // Started again (seeded a second time): the same library.
      const second = await start()
      expect(await list(second, 'random')).toEqual(random)
      expect(await list(second, 'people')).toEqual([
        ...people.filter((id) => id !== deleted),
        upload.json().id,
      ])
      await second.close()

      // On a storage that lost its objects, the starter pictures come back under their rows.
      const third = await start(emptyDir)
      expect(await list(third, 'random')).toEqual(random)
      expect(await served(third, 'random')).toEqual(shipped('random'))
      await third.close()
    } finally {
      await server.stop()
      await db.close()
      await rm(dataDir, { recursive: true, force: true })
      await rm(emptyDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('starts without the set when its manifest cannot be read, and serves the library', async () => {
    const db = await PGlite.create()
    const server = await serveEmbeddedDatabase(db, { maxConnections: 16 })
    const dataDir = await mkdtemp(join(tmpdir(), 'crv-starter-set-'))
    const brokenDir = await mkdtemp(join(tmpdir(), 'crv-starter-set-broken-'))
    await writeFile(join(brokenDir, 'manifest.json'), '{"pictures": [')
    const keys = await createTestKeys()
    try {
      const { app } = await buildTestService(
        mediaApp,
        loadMediaConfig,
        { DATABASE_URL: server.url, DATA_DIR: dataDir, TACHISTOSCOPE_STARTER_DIR: brokenDir },
        keys,
      )
      const res = await app.inject({
        url: '/api/tachistoscope/images/list/random',
        headers: { authorization: `Bearer ${await keys.tokenFor('admin')}` },
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual([])
      await app.close()
    } finally {
      await server.stop()
      await db.close()
      await rm(dataDir, { recursive: true, force: true })
      await rm(brokenDir, { recursive: true, force: true })
    }
  }, 60_000)
})
