// Issue [24] item 4 and the perceptual-hash part of item 2: importing a collection of targets
// from a manifest through the real HTTP stack, and refusing near-duplicate pictures, with the
// fixture collection in fixtures/import (made by its make-fixtures.ts).
import { createHash, randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import sharp from 'sharp'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '@crv/contracts'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import { createStorage } from '@crv/kit/storage'
import type { ObjectStorage } from '@crv/kit/storage'
import practiceApp from '../src/app.ts'
import { loadPracticeConfig } from '../src/config.ts'
import type { PracticeConfig } from '../src/config.ts'
import { hashMissing } from '../src/near-duplicates/backfill.ts'
import { NEAR_DUPLICATE_MAX_DISTANCE } from '../src/near-duplicates/perceptual-hash.ts'
import { imageObjectKey, newImageKey } from '../src/seed.ts'
import { sweepAbandonedPictures } from '../src/target-import/add-targets.ts'
import { uploadedPictures } from '../src/target-import/pictures.ts'
import { importTargets } from '../src/target-import/target-import.ts'
import { loadVocabulary } from '../src/vocabulary.ts'

type Schemas = components['schemas']
type Report = Schemas['PracticeImportReport']

const FIXTURES = join(import.meta.dirname, 'fixtures', 'import')
const LIMITS = { maxBytes: 100_000, maxPixels: 1_000_000 }

let app: FastifyInstance
let keys: TestKeys
let config: PracticeConfig
beforeAll(async () => {
  const built = await buildTestService(practiceApp, loadPracticeConfig, {
    DATABASE_URL: testDatabaseUrl(),
    ASTRO_URL: 'http://127.0.0.1:9',
    // The fixtures' too large pictures are made for these limits.
    PRACTICE_IMAGE_MAX_BYTES: String(LIMITS.maxBytes),
    PRACTICE_IMAGE_MAX_PIXELS: String(LIMITS.maxPixels),
  })
  app = built.app
  keys = built.keys
  config = built.config
})
afterAll(() => app.close())

function call(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  })
}

async function newPool(admin: string): Promise<string> {
  const res = await call('POST', '/api/admin/practice/pools', admin, {
    name: `Import ${randomUUID()}`,
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

/** The fixture collection as the admin page sends it: the manifest and every picture. */
function fixtureRequest(poolId: string, dryRun: boolean) {
  const files = readdirSync(FIXTURES)
    .filter((name) => !/\.(csv|ts)$/.test(name))
    .map((name) => ({ name, data: readFileSync(join(FIXTURES, name)).toString('base64') }))
  return {
    poolId,
    dryRun,
    manifest: { name: 'manifest.csv', text: readFileSync(join(FIXTURES, 'manifest.csv'), 'utf8') },
    files,
  }
}

async function runImport(admin: string, body: object): Promise<Report> {
  const res = await call('POST', '/api/admin/practice/imports', admin, body)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Report
}

const byFile = (report: Report) =>
  Object.fromEntries(
    report.rows.map((r) => [r.file, { status: r.status, codes: r.reasons.map((x) => x.code) }]),
  )

async function poolTargets(admin: string, poolId: string) {
  const res = await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)
  return res.json() as Schemas['PracticeTarget'][]
}

/** The sunset of the fixtures, saved again at another JPEG quality and size. */
const sunsetCopy = async (quality: number) =>
  sharp(readFileSync(join(FIXTURES, 'sunset.jpg')))
    .resize(300)
    .jpeg({ quality })
    .toBuffer()

describe('importing a collection from a manifest', () => {
  it('reports in a dry run what would be added and why each other row is refused, storing nothing', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const report = await runImport(admin, fixtureRequest(poolId, true))

    expect(report).toMatchObject({ dryRun: true, poolId, accepted: 4, refused: 10, added: 0 })
    expect(report.ignoredColumns).toEqual(['photographer'])
    expect(byFile(report)).toEqual({
      'sunset.jpg': { status: 'accepted', codes: [] },
      'forest.png': { status: 'accepted', codes: [] },
      'city.webp': { status: 'accepted', codes: [] },
      'waves.jpg': { status: 'accepted', codes: [] },
      'sunset-q35.jpg': { status: 'refused', codes: ['duplicate_in_manifest'] },
      'meadow.jpg': { status: 'refused', codes: ['licence_not_allowed'] },
      'bridge.jpg': { status: 'refused', codes: ['attribution_required'] },
      'notes.jpg': { status: 'refused', codes: ['unsupported_image'] },
      'large.png': { status: 'refused', codes: ['image_too_many_pixels'] },
      'heavy.jpg': { status: 'refused', codes: ['image_too_large'] },
      'field.jpg': { status: 'refused', codes: ['unknown_tags'] },
      'desert.jpg': { status: 'refused', codes: ['missing_field'] },
      'missing.jpg': { status: 'refused', codes: ['image_missing'] },
      'http://127.0.0.1:9/remote.jpg': { status: 'refused', codes: ['url_not_fetched'] },
    })
    const row = (file: string) => report.rows.find((r) => r.file === file)
    // Words in any language of the vocabulary become concept ids; licences their stored form.
    expect(row('forest.png')).toMatchObject({
      tags: ['tree', 'green', 'tall'],
      licence: 'CC-BY-SA-4.0',
    })
    expect(row('waves.jpg')?.tags).toContain('water-gestalt')
    expect(row('city.webp')?.licence).toBe('public-domain')
    // Each refusal names what it is about.
    expect(row('sunset-q35.jpg')?.reasons[0]?.details).toMatchObject({ row: 2 })
    expect(row('meadow.jpg')?.reasons[0]?.details).toEqual({ licence: 'CC-BY-NC-4.0' })
    expect(row('field.jpg')?.reasons[0]?.details).toEqual({ tags: ['blorf'] })
    expect(row('desert.jpg')?.reasons[0]?.details).toEqual({ field: 'title' })
    expect(row('sunset.jpg')?.row).toBe(2)

    expect(await poolTargets(admin, poolId)).toEqual([])
  })

  it('adds the accepted rows in the real run, and refuses their pictures at another JPEG quality by name', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const report = await runImport(admin, fixtureRequest(poolId, false))
    expect(report).toMatchObject({ dryRun: false, accepted: 4, refused: 10, added: 4 })
    const targets = await poolTargets(admin, poolId)
    expect(targets.map((t) => t.title).sort()).toEqual([
      'A city at night',
      'A forest',
      'Sunset over the hills',
      'Waves',
    ])
    const added = report.rows.filter((r) => r.status === 'added')
    expect(added.map((r) => r.targetId).sort()).toEqual(targets.map((t) => t.id).sort())
    expect(targets.find((t) => t.title === 'A forest')).toMatchObject({
      licence: 'CC-BY-SA-4.0',
      attribution: 'Jane Doe',
      source: 'https://collection.example.org/forest',
      tags: ['tree', 'green', 'tall'],
    })
    const sunset = targets.find((t) => t.title === 'Sunset over the hills')

    // Planted fault: the same sunset saved at JPEG quality 50 and 300 px wide.
    const again = await runImport(admin, {
      poolId,
      dryRun: true,
      manifest: {
        name: 'again.json',
        text: JSON.stringify([
          {
            file: 'sunset-again.jpg',
            title: 'Evening',
            feedback: 'A sunset.',
            licence: 'CC0-1.0',
            source: 's',
            tags: ['sun'],
          },
        ]),
      },
      files: [{ name: 'sunset-again.jpg', data: (await sunsetCopy(50)).toString('base64') }],
    })
    const reason = again.rows[0]?.reasons[0]
    expect(reason).toMatchObject({
      code: 'near_duplicate',
      details: { targetId: sunset?.id, title: 'Sunset over the hills' },
    })
    expect(reason?.message).toContain('"Sunset over the hills"')
    expect(reason?.details?.distance).toBeLessThanOrEqual(NEAR_DUPLICATE_MAX_DISTANCE)
  })

  it('adds a picture once when two imports of it run at the same time', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const body = (quality: number) =>
      sunsetCopy(quality).then((image) => ({
        poolId,
        dryRun: false,
        manifest: {
          name: 'one.csv',
          text: `file,title,feedback,licence,source,tags\nsunset.jpg,Sunset ${quality},A sunset.,CC0-1.0,s,sun\n`,
        },
        files: [{ name: 'sunset.jpg', data: image.toString('base64') }],
      }))
    const reports = await Promise.all([
      runImport(admin, await body(60)),
      runImport(admin, await body(80)),
    ])
    expect(reports.map((r) => r.added).sort()).toEqual([0, 1])
    expect(reports.flatMap((r) => r.rows.flatMap((row) => row.reasons.map((x) => x.code)))).toEqual(
      ['near_duplicate'],
    )
    expect(await poolTargets(admin, poolId)).toHaveLength(1)
  })

  it('refuses a manifest it cannot read, a pool that does not exist, and a user', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const bad = await call('POST', '/api/admin/practice/imports', admin, {
      poolId,
      dryRun: true,
      manifest: { name: 'm.json', text: '{"targets": ' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBe('manifest_unreadable')
    const noPool = await call('POST', '/api/admin/practice/imports', admin, {
      ...fixtureRequest(randomUUID(), true),
      files: [],
    })
    expect(noPool.statusCode).toBe(404)
    const user = await keys.tokenFor('user')
    const refused = await call(
      'POST',
      '/api/admin/practice/imports',
      user,
      fixtureRequest(poolId, true),
    )
    expect(refused.statusCode).toBe(403)
    expect(await poolTargets(admin, poolId)).toEqual([])
  })
})

describe('hostile manifests', () => {
  const nasty = fc.constantFrom(
    '\u0000',
    '\uD800',
    '\uFEFF',
    'bell \u0007',
    '\u001B[31mred',
    '"',
    '""',
    '\r\n',
    ';;;',
    '../../etc/passwd',
    'data:image/png;base64,AAAA',
    'http://169.254.169.254/latest/meta-data/',
    "=cmd|' /C calc'!A0",
    'CC-BY-NC-4.0',
    'x'.repeat(3000),
  )
  // Each column mostly plausible, so that some rows pass every check and reach the database.
  const column = (...plausible: string[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...plausible) },
      { weight: 1, arbitrary: nasty },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    )
  const row = fc.tuple(
    column('sunset.jpg', 'waves.jpg'),
    column('A title', 'Ünïcødé 🌊 title'),
    column('Some feedback.'),
    column('CC0', 'CC BY-SA 3.0', 'own'),
    column('https://example.org/s'),
    column('sun; orange', 'Wasser'),
    column('Jane Doe'),
  )
  const csv = fc
    .array(row, { minLength: 1, maxLength: 6 })
    .chain((rows) =>
      fc
        .constantFrom(',', ';', '\t')
        .map((sep) =>
          [['file', 'title', 'feedback', 'licence', 'source', 'tags', 'attribution'], ...rows]
            .map((r) => r.join(sep))
            .join('\n'),
        ),
    )
  const json = fc
    .jsonValue({ maxDepth: 3 })
    .map((value) => JSON.stringify({ targets: [value, value] }))
  const manifest = fc.oneof(
    { weight: 4, arbitrary: csv.map((text) => ({ name: 'm.csv', text })) },
    { weight: 1, arbitrary: json.map((text) => ({ name: 'm.json', text })) },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ name: 'm.json', text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 200 })
        .map((text) => ({ name: 'm.csv', text })),
    },
  )
  const files = ['sunset.jpg', 'waves.jpg'].map((name) => ({
    name,
    data: readFileSync(join(FIXTURES, name)).toString('base64'),
  }))

  it('never answer 5xx, refuse in the error shape, and add only whole rows', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    let added = 0
    await fc.assert(
      fc.asyncProperty(manifest, async (m) => {
        const res = await call('POST', '/api/admin/practice/imports', admin, {
          poolId,
          dryRun: false,
          manifest: m,
          files,
        })
        expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500)
        if (res.statusCode !== 200) expect(typeof res.json().error.code).toBe('string')
        else added += (res.json() as Report).added
      }),
      { numRuns: 60, seed: 20261127 },
    )
    const targets = await poolTargets(admin, poolId)
    // The positive control: some rows got through, at most one per picture.
    expect(targets.length).toBe(added)
    expect(added).toBeGreaterThan(0)
    expect(added).toBeLessThanOrEqual(2)
  })
})

describe('near-duplicates in the admin upload', () => {
  it('refuses a picture at another JPEG quality in the error shape, naming the target it repeats', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const target = (image: Buffer, title: string) => ({
      image: image.toString('base64'),
      fileName: `${title}.jpg`,
      title,
      feedback: 'A sunset.',
      tags: ['sun'],
      licence: 'CC-BY-SA-3.0',
      attribution: 'Jane Doe',
      source: 's',
    })
    const first = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: [
        target(readFileSync(join(FIXTURES, 'sunset.jpg')), 'Sunset'),
        target(readFileSync(join(FIXTURES, 'waves.jpg')), 'Waves'),
        // The first picture again in the same upload.
        target(await sunsetCopy(40), 'Sunset twice'),
      ],
    })
    expect(first.statusCode, first.body).toBe(200)
    const created = first.json() as Schemas['PracticeTargetsCreated']
    expect(created.created.map((t) => [t.title, t.licence])).toEqual([
      ['Sunset', 'CC-BY-SA-3.0'],
      ['Waves', 'CC-BY-SA-3.0'],
    ])
    expect(created.refused).toEqual([
      expect.objectContaining({
        index: 2,
        code: 'near_duplicate',
        details: expect.objectContaining({ row: 1 }),
      }),
    ])

    const again = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: [target(await sunsetCopy(25), 'Sunset again')],
    })
    const refused = (again.json() as Schemas['PracticeTargetsCreated']).refused[0]
    expect(refused).toMatchObject({
      code: 'near_duplicate',
      details: { targetId: created.created[0]?.id, title: 'Sunset' },
    })
    expect(refused?.message).toMatch(/near-duplicate of the pool's target "Sunset"/)
    // Another pool is another collection: the same picture is welcome there.
    const other = await call('POST', '/api/admin/practice/targets', admin, {
      poolId: await newPool(admin),
      targets: [target(await sunsetCopy(25), 'Sunset elsewhere')],
    })
    expect((other.json() as Schemas['PracticeTargetsCreated']).created).toHaveLength(1)
  })

  it('still takes flat test pictures of different colours, whose hashes mean nothing', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const flat = (r: number, g: number, b: number) =>
      sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g, b } } })
        .jpeg()
        .toBuffer()
    // Grey levels 64 and 128 hash alike bit for bit (the DCT's rounding scales with the level).
    const pictures = [await flat(64, 64, 64), await flat(128, 128, 128), await flat(200, 40, 40)]
    const res = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: pictures.map((p, i) => ({
        image: p.toString('base64'),
        title: `Flat ${i}`,
        feedback: 'A flat colour.',
        tags: ['gray'],
        licence: 'own',
        source: 's',
      })),
    })
    expect((res.json() as Schemas['PracticeTargetsCreated']).created).toHaveLength(3)
  })
})

describe('never a half-written target', () => {
  const deps = (storage: ObjectStorage) => ({
    db: app.db,
    storage,
    vocabulary: loadVocabulary(config.VOCABULARY_DIR),
    limits: LIMITS,
  })

  it('stores neither rows nor pictures when the storage fails halfway through a run', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const real = createStorage(config)
    const before = new Set((await real.list('practice/')).map((o) => o.key))
    const asked: string[] = []
    const failing: ObjectStorage = {
      driver: real.driver,
      put: async (key, body, options) => {
        asked.push(key)
        if (asked.length === 3) throw new Error('disk full')
        return real.put(key, body, options)
      },
      get: (key, range) => real.get(key, range),
      head: (key) => real.head(key),
      delete: (key) => real.delete(key),
      list: (prefix) => real.list(prefix),
    }
    const request = fixtureRequest(poolId, false)
    await expect(
      importTargets(deps(failing), {
        poolId,
        dryRun: false,
        manifest: request.manifest,
        pictures: uploadedPictures(request.files),
      }),
    ).rejects.toThrow('disk full')
    expect(asked).toHaveLength(3)
    expect(await poolTargets(admin, poolId)).toEqual([])
    const after = (await real.list('practice/')).map((o) => o.key)
    expect(after.filter((key) => !before.has(key))).toEqual([])
    const imageKeys = asked.map((key) => key.replace(/^practice\//, ''))
    const pending = await app.db.execute(
      sql`SELECT image_key FROM practice.pending_images
          WHERE image_key = ANY(${sql.param(imageKeys)}::text[])`,
    )
    expect(pending.rows).toEqual([])
  })

  it('removes the pictures of a run that died before its rows were committed', async () => {
    const storage = createStorage(config)
    const key = newImageKey()
    await storage.put(imageObjectKey(key), readFileSync(join(FIXTURES, 'sunset.jpg')), {
      contentType: 'image/jpeg',
    })
    await app.db.execute(sql`INSERT INTO practice.pending_images (image_key, created_at)
                             VALUES (${key}, now() - interval '2 hours')`)
    const fresh = newImageKey()
    await app.db.execute(sql`INSERT INTO practice.pending_images (image_key) VALUES (${fresh})`)
    expect(await sweepAbandonedPictures({ db: app.db, storage })).toBeGreaterThanOrEqual(1)
    expect(await storage.head(imageObjectKey(key))).toBeNull()
    const left = await app.db.execute(
      sql`SELECT image_key FROM practice.pending_images WHERE image_key IN (${key}, ${fresh})`,
    )
    // A run still in its hour keeps its pictures.
    expect(left.rows).toEqual([{ image_key: fresh }])
    await app.db.execute(sql`DELETE FROM practice.pending_images WHERE image_key = ${fresh}`)
  })
})

describe('targets stored before hashes existed', () => {
  it('get a hash from their stored picture, and a copy of theirs is refused', async () => {
    const admin = await keys.tokenFor('admin')
    const poolId = await newPool(admin)
    const storage = createStorage(config)
    const key = newImageKey()
    await storage.put(imageObjectKey(key), readFileSync(join(FIXTURES, 'city.webp')), {
      contentType: 'image/jpeg',
    })
    const picture = readFileSync(join(FIXTURES, 'city.webp'))
    await app.db.execute(sql`
      INSERT INTO practice.targets (pool_id, title, feedback, tags, licence, image_key, image_sha256)
      VALUES (${poolId}, 'Old city', 'From before.', '{city}', 'own', ${key},
              ${createHash('sha256').update(picture).digest('hex')})`)
    const copy = await sharp(readFileSync(join(FIXTURES, 'city.webp')))
      .jpeg({ quality: 60 })
      .toBuffer()
    const res = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: [
        {
          image: copy.toString('base64'),
          title: 'City',
          feedback: 'f',
          tags: ['city'],
          licence: 'own',
          source: 's',
        },
      ],
    })
    expect((res.json() as Schemas['PracticeTargetsCreated']).refused[0]).toMatchObject({
      code: 'near_duplicate',
      details: { title: 'Old city' },
    })
    const stored = await app.db.execute(
      sql`SELECT phash IS NOT NULL AS hashed FROM practice.targets WHERE image_key = ${key}`,
    )
    expect(stored.rows).toEqual([{ hashed: true }])
    // The start-up walk finds nothing left to do for it.
    expect((await hashMissing(app.db, storage, { poolId })).hashed).toBe(0)
  })
})
