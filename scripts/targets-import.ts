// `npm run targets:import -- FILE [--dry-run] [--pool SLUG] [--json] [--allow-private-network]`:
// imports practice targets from a CSV or JSON manifest (issue [24] item 4) with the checks of
// the admin page's import. Pictures are files beside the manifest or URLs, which only this
// command fetches. Uses DATABASE_URL, else the embedded database of DATA_DIR (through the
// running app when it is up, else opened here), and the app's object storage.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { AppError } from '@crv/kit'
import { createDatabase, createPool, runMigrations } from '@crv/kit/db'
import { createStorage } from '@crv/kit/storage'
import { loadPracticeConfig } from '../services/practice/src/config.ts'
import { diskPictures } from '../services/practice/src/target-import/pictures.ts'
import { poolIdOf, poolSlugs } from '../services/practice/src/target-import/repository.ts'
import { importTargets } from '../services/practice/src/target-import/target-import.ts'
import type { ImportReport } from '../services/practice/src/target-import/target-import.ts'
import { loadVocabulary } from '../services/practice/src/vocabulary.ts'
import { embeddedDatabaseUrl, openEmbeddedDatabase } from './lib/embedded-db.ts'
import { fetchPicture } from './lib/fetch-picture.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const usage =
  'usage: npm run targets:import -- FILE [--dry-run] [--pool SLUG] [--json] [--allow-private-network]'

const parse = () =>
  parseArgs({
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      pool: { type: 'string', default: 'starter' },
      json: { type: 'boolean', default: false },
      'allow-private-network': { type: 'boolean', default: false },
    },
  })
let args: ReturnType<typeof parse>
try {
  args = parse()
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`)
  process.exit(2)
}
const [file, ...extra] = args.positionals
if (!file || extra.length > 0) {
  console.error(usage)
  process.exit(2)
}

const manifestPath = resolve(file)
const dryRun = args.values['dry-run']
const dataDir = resolve(process.env.DATA_DIR ?? join(root, 'data'))
let close = async () => {}
let url = process.env.DATABASE_URL || embeddedDatabaseUrl(dataDir)
if (!url) {
  if (!existsSync(join(dataDir, 'postgres', 'PG_VERSION'))) {
    console.error(
      `No database yet in ${dataDir}: start the app once (npm start), or set DATABASE_URL.`,
    )
    process.exit(1)
  }
  const opened = await openEmbeddedDatabase(join(dataDir, 'postgres'))
  url = opened.url
  close = opened.close
}

const config = loadPracticeConfig({ ...process.env, DATABASE_URL: url, DATA_DIR: dataDir })
const pool = createPool({ url, max: 2 })
try {
  const text = await readFile(manifestPath, 'utf8').catch(() => {
    throw new AppError('manifest_unreadable', 400, `No manifest at ${manifestPath}.`)
  })
  await runMigrations(pool, {
    schema: 'practice',
    dir: join(root, 'services', 'practice', 'migrations'),
  })
  const db = createDatabase(pool)
  const slug = args.values.pool
  const poolId = await poolIdOf(db, slug)
  if (!poolId) {
    const known = await poolSlugs(db)
    throw new AppError(
      'not_found',
      404,
      `No target pool "${slug}". Pools: ${known.join(', ') || 'none yet (start the app once)'}.`,
    )
  }
  const maxBytes = config.PRACTICE_IMAGE_MAX_BYTES
  const report = await importTargets(
    {
      db,
      storage: createStorage(config),
      vocabulary: loadVocabulary(config.VOCABULARY_DIR),
      limits: { maxBytes, maxPixels: config.PRACTICE_IMAGE_MAX_PIXELS },
    },
    {
      poolId,
      dryRun,
      manifest: { name: basename(manifestPath), text },
      pictures: diskPictures(dirname(manifestPath), maxBytes, (address) =>
        fetchPicture(address, {
          maxBytes,
          allowPrivateNetwork: args.values['allow-private-network'],
        }),
      ),
    },
  )
  console.log(args.values.json ? JSON.stringify(report, null, 2) : describe(report, slug))
} catch (err) {
  console.error(err instanceof AppError ? err.message : (err as Error).stack)
  process.exitCode = 1
} finally {
  await pool.end()
  await close()
}

function describe(report: ImportReport, slug: string): string {
  const lines: string[] = []
  const name = basename(manifestPath)
  lines.push(
    report.dryRun
      ? `Dry run of ${name} into pool "${slug}": ${report.accepted} of ${report.rows.length} rows would be added, ${report.refused} refused.`
      : `Import of ${name} into pool "${slug}": ${report.added} of ${report.rows.length} rows added, ${report.refused} refused.`,
  )
  for (const row of report.rows) {
    const status = { accepted: 'would add', added: 'added', refused: 'refused' }[row.status]
    const what = `${row.file || '(no file)'}${row.title ? `  "${row.title}"` : ''}`
    lines.push(`  row ${String(row.row).padStart(4)}  ${status.padEnd(9)}  ${what}`)
    if (row.status !== 'refused') lines.push(`            tags: ${row.tags.join(', ')}`)
    for (const reason of row.reasons) lines.push(`            ${reason.code}: ${reason.message}`)
  }
  if (report.ignoredColumns.length > 0) {
    lines.push(`Columns not read: ${report.ignoredColumns.join(', ')}`)
  }
  if (report.dryRun) {
    lines.push(
      report.accepted > 0
        ? `Nothing was stored. Run again without --dry-run to add the ${report.accepted} accepted rows.`
        : 'Nothing was stored.',
    )
  }
  return lines.join('\n')
}
