// `npm run targets:import` (issue [24] item 4), spawned against the test database with the
// fixture collection of services/practice/test/fixtures/import, and the URL fetch it alone does.
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { runMigrations } from '@crv/kit/db'
import { testDatabaseUrl } from '@crv/kit/testing'
import type { components } from '@crv/contracts'
import { fetchPicture, isPrivateAddress } from '../scripts/lib/fetch-picture.ts'

type Report = components['schemas']['PracticeImportReport']

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const fixtures = join(root, 'services/practice/test/fixtures/import')
const dataDir = mkdtempSync(join(tmpdir(), 'crv-targets-import-'))
const importCli = (...args: string[]) =>
  run(process.execPath, ['scripts/targets-import.ts', ...args], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: dataDir,
      // The fixtures' too large pictures are made for these limits.
      PRACTICE_IMAGE_MAX_BYTES: '100000',
      PRACTICE_IMAGE_MAX_PIXELS: '1000000',
    },
  })
const db = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 })

const sunset = readFileSync(join(fixtures, 'sunset.jpg'))
const server = createServer((req, res) => {
  if (req.url === '/sunset.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(sunset)
  else if (req.url === '/moved') res.writeHead(302, { location: '/sunset.jpg' }).end()
  else if (req.url === '/huge') res.writeHead(200).end(Buffer.alloc(200_000))
  else res.writeHead(404).end()
})
let base = ''

beforeAll(async () => {
  await runMigrations(db, { schema: 'practice', dir: join(root, 'services/practice/migrations') })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.close()
  await db.end()
})

async function newPool(): Promise<string> {
  const slug = `import-${randomUUID()}`
  await db.query('INSERT INTO practice.pools (slug, name) VALUES ($1, $1)', [slug])
  return slug
}

const targetsOf = async (slug: string) =>
  (
    await db.query<{ title: string; image_key: string; licence: string; tags: string[] }>(
      `SELECT t.title, t.image_key, t.licence, t.tags FROM practice.targets t
       JOIN practice.pools p ON p.id = t.pool_id WHERE p.slug = $1 ORDER BY t.title`,
      [slug],
    )
  ).rows

describe('npm run targets:import', { timeout: 60_000 }, () => {
  it('reports a dry run of the fixture collection row by row and stores nothing', async () => {
    const slug = await newPool()
    const { stdout } = await importCli(join(fixtures, 'manifest.csv'), '--dry-run', '--pool', slug)
    expect(stdout).toContain(
      `Dry run of manifest.csv into pool "${slug}": 4 of 14 rows would be added, 10 refused.`,
    )
    expect(stdout).toMatch(/row +2 +would add +sunset\.jpg +"Sunset over the hills"/)
    expect(stdout).toMatch(
      /row +6 +refused +sunset-q35\.jpg[^\n]*\n +duplicate_in_manifest: [^\n]*row 2/,
    )
    expect(stdout).toMatch(/licence_not_allowed: The licence "CC-BY-NC-4.0" is not allowed/)
    // The CLI fetches URLs, but never from this machine or a private network unless told.
    expect(stdout).toMatch(
      /image_fetch_failed: [^\n]*127\.0\.0\.1 is a private or loopback address/,
    )
    expect(stdout).toContain('Columns not read: photographer')
    expect(stdout).toContain(
      'Nothing was stored. Run again without --dry-run to add the 4 accepted rows.',
    )
    expect(await targetsOf(slug)).toEqual([])
  })

  it('adds the accepted rows with their pictures stored, and refuses them when imported again', async () => {
    const slug = await newPool()
    const { stdout } = await importCli(join(fixtures, 'manifest.csv'), '--pool', slug, '--json')
    const report = JSON.parse(stdout) as Report
    expect(report).toMatchObject({ dryRun: false, added: 4, refused: 10 })
    const targets = await targetsOf(slug)
    expect(targets.map((t) => [t.title, t.licence])).toEqual([
      ['A city at night', 'public-domain'],
      ['A forest', 'CC-BY-SA-4.0'],
      ['Sunset over the hills', 'CC0-1.0'],
      ['Waves', 'own'],
    ])
    for (const t of targets)
      expect(existsSync(join(dataDir, 'objects', 'practice', t.image_key))).toBe(true)

    const again = JSON.parse(
      (await importCli(join(fixtures, 'manifest.csv'), '--pool', slug, '--json')).stdout,
    ) as Report
    expect(again.added).toBe(0)
    const sunsetRow = again.rows.find((r) => r.file === 'sunset.jpg')
    expect(sunsetRow?.reasons[0]).toMatchObject({
      code: 'near_duplicate',
      details: { title: 'Sunset over the hills' },
    })
    expect(await targetsOf(slug)).toHaveLength(4)
  })

  it('fetches a picture by URL, following a redirect, from a network the operator allows', async () => {
    const slug = await newPool()
    const dir = mkdtempSync(join(tmpdir(), 'crv-manifest-'))
    const manifest = join(dir, 'remote.csv')
    writeFileSync(
      manifest,
      [
        'url,title,feedback,licence,source,tags',
        `${base}/moved,Remote sunset,A sunset.,CC0-1.0,${base},sun`,
        `${base}/huge,Huge,Too large.,CC0-1.0,${base},sun`,
        `${base}/gone.jpg,Gone,Not there.,CC0-1.0,${base},sun`,
        'ftp://example.org/a.jpg,FTP,Not http.,CC0-1.0,s,sun',
        '../outside.jpg,Outside,Beside the folder.,CC0-1.0,s,sun',
      ].join('\n'),
    )
    const report = JSON.parse(
      (await importCli(manifest, '--pool', slug, '--dry-run', '--json', '--allow-private-network'))
        .stdout,
    ) as Report
    expect(report.rows.map((r) => [r.status, r.reasons[0]?.message ?? ''])).toEqual([
      ['accepted', ''],
      ['refused', expect.stringMatching(/larger than 100000 bytes/)],
      ['refused', expect.stringMatching(/the server answered 404/)],
      ['refused', expect.stringMatching(/only http and https are fetched, not ftp:/)],
      ['refused', expect.stringMatching(/outside the manifest's folder/)],
    ])
  })

  it('explains its usage, and names the pools when asked for one that does not exist', async () => {
    await expect(importCli()).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/usage: npm run targets:import -- FILE/),
    })
    const slug = await newPool()
    await expect(
      importCli(join(fixtures, 'manifest.csv'), '--dry-run', '--pool', 'no-such-pool'),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(slug),
    })
  })
})

describe('the URL guard of the command-line import', () => {
  it('knows loopback, private, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'not an address',
    ])
      expect(isPrivateAddress(address), address).toBe(true)
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111'])
      expect(isPrivateAddress(address), address).toBe(false)
  })

  it('refuses a name that resolves to this machine, before connecting', async () => {
    let served = 0
    server.once('request', () => served++)
    const port = (server.address() as AddressInfo).port
    await expect(
      fetchPicture(`http://localhost:${port}/sunset.jpg`, { maxBytes: 100_000 }),
    ).rejects.toMatchObject({
      code: 'image_fetch_failed',
      message: expect.stringMatching(/localhost is a private address/),
    })
    await expect(
      fetchPicture(`http://[::ffff:127.0.0.1]:${port}/sunset.jpg`, { maxBytes: 100_000 }),
    ).rejects.toMatchObject({
      code: 'image_fetch_failed',
    })
    expect(served).toBe(0)
    // The positive control: allowed, the same server answers.
    expect(
      await fetchPicture(`http://localhost:${port}/sunset.jpg`, {
        maxBytes: 100_000,
        allowPrivateNetwork: true,
      }),
    ).toEqual(sunset)
  })
})
