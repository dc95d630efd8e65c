// Migrations behind PgBouncer in transaction mode, as the production stack runs (deploy/): each
// transaction may get another server connection, so nothing may rely on a session.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool, runMigrations } from '../src/db.ts'
import type { Pool } from '../src/db.ts'
import { testDatabaseUrl } from '../src/testing/index.ts'

const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer'
const database = new URL(testDatabaseUrl())
// The embedded database listens on a private Unix socket (its URL's host is the socket's folder,
// percent-encoded); PgBouncer sits in front of a server on TCP.
const host = decodeURIComponent(database.hostname)
const onServer = database.protocol === 'postgres:' && host !== '' && !host.startsWith('/')
const canRun = onServer && existsSync(PGBOUNCER)
if (onServer && !canRun && process.env.CI) {
  throw new Error(`${PGBOUNCER} is missing: .ci/run installs Debian's pgbouncer`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

describe.skipIf(!canRun)('runMigrations behind a transaction-mode pooler', () => {
  let dir = ''
  let bouncer: ChildProcess | undefined
  let url = ''
  const pools: Pool[] = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crv-pgbouncer-'))
    const port = await freePort()
    const user = decodeURIComponent(database.username) || 'postgres'
    await writeFile(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `crv = host=${database.hostname} port=${database.port || 5432} dbname=${database.pathname.slice(1)} user=${user}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = any',
        'pool_mode = transaction',
        // Fewer server connections than replicas: transactions must share them.
        'default_pool_size = 2',
        'max_client_conn = 50',
        'ignore_startup_parameters = extra_float_digits',
      ].join('\n'),
    )
    const child = spawn(
      PGBOUNCER,
      // It refuses to run as root (CI runs as root): it drops to nobody after reading its file.
      [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    bouncer = child
    let said = ''
    child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()))
    url = `postgres://${user}@127.0.0.1:${port}/crv`
    const probe = createPool({ url, max: 1 })
    try {
      for (let tries = 0; ; tries++) {
        try {
          await probe.query('SELECT 1')
          break
        } catch (err) {
          if (tries > 50 || child.exitCode !== null)
            throw new Error(`PgBouncer did not answer: ${(err as Error).message}\n${said}`)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    } finally {
      await probe.end()
    }
  })

  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()))
    bouncer?.kill('SIGTERM')
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('applies each migration once when four replicas start at once', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`
    const migrations = await mkdtemp(join(dir, 'migrations-'))
    await writeFile(
      join(migrations, '0001_create.sql'),
      'CREATE TABLE notes (id serial, text text);',
    )
    // A slow one, so that the others arrive while it runs.
    await writeFile(
      join(migrations, '0002_slow.sql'),
      "SELECT pg_sleep(0.3); INSERT INTO notes (text) VALUES ('once');",
    )
    await writeFile(
      join(migrations, '0003_column.sql'),
      'ALTER TABLE notes ADD COLUMN done boolean;',
    )
    const replicas = Array.from({ length: 4 }, () => {
      const pool = createPool({ url, max: 2 })
      pools.push(pool)
      return pool
    })
    const results = await Promise.all(
      replicas.map((pool) => runMigrations(pool, { schema, dir: migrations })),
    )
    expect(results.flatMap((r) => r.applied).sort()).toEqual([
      '0001_create.sql',
      '0002_slow.sql',
      '0003_column.sql',
    ])
    const check = replicas[0] as Pool
    expect((await check.query(`SELECT text, done FROM ${schema}.notes`)).rows).toEqual([
      { text: 'once', done: null },
    ])
    // And a replica started later finds them all done.
    expect(await runMigrations(check, { schema, dir: migrations })).toEqual({
      applied: [],
      skipped: 3,
    })
  })
})
