// The starter pool of practice targets (issues [10] and [24]): the committed manifest and pictures
// are complete, tagged with real concept ids, redistributable, spread over the gestalt classes,
// written the same way byte for byte (so no file property tells a target from its decoys), and
// an installation that has an older pool gets the new targets at its next start.
import { createHash, randomUUID } from 'node:crypto'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'
import { buildTestService, createTestKeys } from '@crv/kit/testing'
import practiceApp from '../services/practice/src/app.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'

const root = join(import.meta.dirname, '..')
const poolDir = join(root, 'services/practice/starter-pool')

interface Target {
  slug: string
  title: string
  file: string
  feedback: string
  tags: string[]
  gestalt: string
  licence: string
  source: string
  attribution: string | null
  frontloading: string | null
}

interface Manifest {
  pool: { slug: string; name: string }
  targets: Target[]
}

const manifestText = readFileSync(join(poolDir, 'manifest.json'), 'utf8')
const manifest = JSON.parse(manifestText) as Manifest
// What the practice service stores (services/practice/migrations); CC BY-SA is allowed by the
// issue's list but not stored yet, so none is shipped.
const allowedLicences = new Set(['CC0-1.0', 'public-domain', 'CC-BY-4.0', 'own'])
const gestalts = ['biological', 'energy', 'land', 'man-made', 'motion', 'natural', 'space', 'water']
const hints = ['a structure', 'an event', 'a natural place']

/** Concept id → vocabulary category, from the English master list. */
const categoryOf = new Map(
  readFileSync(join(root, 'services/descriptors/data/vocabulary.en.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((row) => row.split(';'))
    .map(([id, category]) => [id ?? '', category ?? '']),
)

/** A 16×16 grayscale thumbnail: the gestalt a judge sees at a glance. */
async function thumbnail(file: string): Promise<Buffer> {
  return sharp(join(poolDir, file)).resize(16, 16, { fit: 'fill' }).grayscale().raw().toBuffer()
}

function meanAbsoluteDifference(a: Buffer, b: Buffer): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0))
  return sum / a.length
}

/**
 * The JPEG's segments before the scan: marker and bytes. Everything an encoder writes about the
 * file (metadata, quantization tables, sampling, coding) is here; the pixels come after.
 */
function jpegSegments(bytes: Buffer): { marker: number; data: Buffer }[] {
  const segments: { marker: number; data: Buffer }[] = []
  expect(bytes.readUInt16BE(0)).toBe(0xffd8)
  let at = 2
  for (;;) {
    const marker = bytes.readUInt16BE(at)
    const length = bytes.readUInt16BE(at + 2)
    segments.push({ marker, data: bytes.subarray(at + 4, at + 2 + length) })
    if (marker === 0xffda) return segments
    at += 2 + length
  }
}

const hex = (marker: number) => marker.toString(16)

describe('starter pool of practice targets', () => {
  it('names the pool and holds at least 200 targets with unique slugs and files', () => {
    expect(manifest.pool).toEqual({ slug: 'starter', name: 'Starter pool' })
    expect(manifest.targets.length).toBeGreaterThanOrEqual(200)
    const slugs = manifest.targets.map((t) => t.slug)
    const files = manifest.targets.map((t) => t.file)
    expect(new Set(slugs).size).toBe(slugs.length)
    expect(new Set(files).size).toBe(files.length)
    for (const t of manifest.targets) expect(t.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  it('spreads the targets over the eight gestalt classes, none above 30 %, each named by its tag', () => {
    const counts = new Map<string, number>()
    for (const t of manifest.targets) {
      expect(gestalts, t.slug).toContain(t.gestalt)
      counts.set(t.gestalt, (counts.get(t.gestalt) ?? 0) + 1)
      // Exactly one gestalt concept among the tags, the target's own.
      expect(
        t.tags.filter((tag) => tag.endsWith('-gestalt')),
        t.slug,
      ).toEqual([`${t.gestalt}-gestalt`])
    }
    expect(counts.size).toBeGreaterThanOrEqual(8)
    for (const [gestalt, n] of counts)
      expect(n / manifest.targets.length, gestalt).toBeLessThanOrEqual(0.3)
  })

  it('gives every hint a class of at least 30 targets to draw a set from', () => {
    for (const t of manifest.targets)
      if (t.frontloading !== null) expect(hints).toContain(t.frontloading)
    for (const hint of hints)
      expect(
        manifest.targets.filter((t) => t.frontloading === hint).length,
        hint,
      ).toBeGreaterThanOrEqual(30)
  })

  it('writes every picture as an 800×600 JPEG that sharp decodes, with no EXIF, ICC or XMP, within 25 MB in all', async () => {
    let total = 0
    for (const t of manifest.targets) {
      const file = join(poolDir, t.file)
      total += statSync(file).size
      const meta = await sharp(file).metadata()
      expect(meta.format, t.file).toBe('jpeg')
      expect([meta.width, meta.height], t.file).toEqual([800, 600])
      expect(meta.exif, t.file).toBeUndefined()
      expect(meta.icc, t.file).toBeUndefined()
      expect(meta.xmp, t.file).toBeUndefined()
      expect(meta.iptc, t.file).toBeUndefined()
      const { info } = await sharp(file).raw().toBuffer({ resolveWithObject: true })
      expect(info.width * info.height, t.file).toBe(800 * 600)
    }
    expect(total).toBeLessThanOrEqual(25 * 1024 * 1024)
  })

  it('encodes every picture the same way: the same segments, tables and sampling before the pixels', () => {
    const headers = manifest.targets.map((t) => {
      const segments = jpegSegments(readFileSync(join(poolDir, t.file)))
      // No APPn but JFIF's APP0, no comment: nothing that says where a picture came from.
      const extra = segments
        .map((s) => s.marker)
        .filter((m) => (m >= 0xffe1 && m <= 0xffef) || m === 0xfffe)
      expect(extra.map(hex), t.file).toEqual([])
      // Huffman tables (DHT) follow from the pixels; every other segment is the encoder's
      // settings: JFIF, quantization tables, frame (size, components, sampling), scan header.
      return segments
        .map((s) => (s.marker === 0xffc4 ? 'ffc4' : `${hex(s.marker)}:${s.data.toString('hex')}`))
        .join(' ')
    })
    const distinct = [...new Set(headers)]
    expect(distinct.length, distinct.join('\n')).toBe(1)
  })

  it('tags every target with 8 to 16 vocabulary concept ids from at least 3 categories', () => {
    for (const t of manifest.targets) {
      const unknown = t.tags.filter((tag) => !categoryOf.has(tag))
      expect(unknown, `${t.slug}: tags not in the vocabulary`).toEqual([])
      expect(new Set(t.tags).size, `${t.slug}: repeated tags`).toBe(t.tags.length)
      expect(t.tags.length, t.slug).toBeGreaterThanOrEqual(8)
      expect(t.tags.length, t.slug).toBeLessThanOrEqual(16)
      const categories = new Set(t.tags.map((tag) => categoryOf.get(tag)))
      expect(categories.size, `${t.slug}: categories`).toBeGreaterThanOrEqual(3)
    }
  })

  it('gives each target a title, a feedback text of 40 to 400 characters, a source and an allowed licence', () => {
    for (const t of manifest.targets) {
      expect(t.title.length, t.slug).toBeGreaterThan(0)
      expect(t.feedback.length, t.slug).toBeGreaterThanOrEqual(40)
      expect(t.feedback.length, t.slug).toBeLessThanOrEqual(400)
      expect(allowedLicences.has(t.licence), `${t.slug}: licence ${t.licence}`).toBe(true)
      expect(t.source.length, t.slug).toBeGreaterThan(0)
      if (t.licence.startsWith('CC-BY')) expect(t.attribution, t.slug).toMatch(/^Photo: .+CC BY/)
    }
  })

  it('holds no picture twice, and makes every two pictures clearly different at a glance', async () => {
    const hashes = manifest.targets.map((t) =>
      createHash('sha256')
        .update(readFileSync(join(poolDir, t.file)))
        .digest('hex'),
    )
    expect(new Set(hashes).size).toBe(hashes.length)
    const thumbs = await Promise.all(manifest.targets.map((t) => thumbnail(t.file)))
    const tooAlike: string[] = []
    for (let i = 0; i < thumbs.length; i++) {
      for (let j = i + 1; j < thumbs.length; j++) {
        const a = thumbs[i]
        const b = thumbs[j]
        if (!a || !b) continue
        // Mean absolute difference of 0–255 gray levels; near-duplicates score below 5.
        const d = meanAbsoluteDifference(a, b)
        if (d < 12) {
          tooAlike.push(
            `${manifest.targets[i]?.slug} ~ ${manifest.targets[j]?.slug}: ${d.toFixed(1)}`,
          )
        }
      }
    }
    expect(tooAlike).toEqual([])
  })
})

describe('an installation seeded with an older starter pool', () => {
  it('gets the new targets at its next start, keeps the ones it has and their sessions, then skips', async () => {
    // A database of its own: the suite's shared one already holds the whole pool.
    const db = await PGlite.create()
    const server = await serveEmbeddedDatabase(db, { maxConnections: 16 })
    const oldDir = await mkdtemp(join(tmpdir(), 'crv-old-pool-'))
    const dataDir = await mkdtemp(join(tmpdir(), 'crv-old-pool-data-'))
    const client = new pg.Pool({ connectionString: server.url, max: 2 })
    try {
      // The pool as it was shipped before: the first 46 targets, without gestalt tags.
      const before = manifest.targets.slice(0, 46).map(({ gestalt: _, ...t }) => ({
        ...t,
        tags: t.tags.filter((tag) => !tag.endsWith('-gestalt')),
      }))
      await mkdir(join(oldDir, 'images'))
      for (const t of before) await cp(join(poolDir, t.file), join(oldDir, t.file))
      await writeFile(
        join(oldDir, 'manifest.json'),
        JSON.stringify({ pool: manifest.pool, targets: before }),
      )
      const keys = await createTestKeys()
      const start = async (dir: string) =>
        buildTestService(
          practiceApp,
          loadPracticeConfig,
          {
            DATABASE_URL: server.url,
            STARTER_POOL_DIR: dir,
            DATA_DIR: dataDir,
            ASTRO_URL: 'http://127.0.0.1:9',
          },
          keys,
        )
      const rows = async () =>
        (
          await client.query<{ id: string; slug: string; image_key: string; tags: string[] }>(
            'SELECT id, slug, image_key, tags FROM practice.targets ORDER BY slug',
          )
        ).rows

      const first = await start(oldDir)
      const viewer = await keys.tokenFor('user', `viewer-${randomUUID()}`)
      const started = await first.app.inject({
        method: 'POST',
        url: '/api/practice/sessions',
        headers: { authorization: `Bearer ${viewer}` },
        payload: {},
      })
      expect(started.statusCode, started.body).toBe(201)
      await first.app.close()
      const oldRows = await rows()
      expect(oldRows).toHaveLength(46)
      const sessions = async () =>
        (await client.query('SELECT * FROM practice.sessions ORDER BY id')).rows
      const sessionsBefore = await sessions()
      expect(sessionsBefore).toHaveLength(1)

      const second = await start(poolDir)
      await second.app.close()
      const newRows = await rows()
      expect(newRows).toHaveLength(manifest.targets.length)
      // The targets it had keep their ids, pictures and tags; sessions point at them.
      const bySlug = new Map(newRows.map((r) => [r.slug, r]))
      for (const r of oldRows) expect(bySlug.get(r.slug), r.slug).toEqual(r)
      expect(await sessions()).toEqual(sessionsBefore)
      const state = await client.query<{ data_hash: string }>(
        'SELECT data_hash FROM practice.seed_state WHERE id = 1',
      )
      expect(state.rows[0]?.data_hash).toBe(createHash('sha256').update(manifestText).digest('hex'))

      // A third start with the same manifest finds nothing to add.
      const third = await start(poolDir)
      await third.app.close()
      expect(await rows()).toEqual(newRows)
    } finally {
      await client.end()
      await server.stop()
      await db.close()
      await rm(oldDir, { recursive: true, force: true })
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
