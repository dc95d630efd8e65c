import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import pg from 'pg'
import { drizzle } from 'drizzle-orm/node-postgres'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { SQL } from 'drizzle-orm'
import type { Logger } from 'pino'
import fp from 'fastify-plugin'
import type {} from './service.ts'

export { fromPostgresTimestamp, withDates } from './timestamps.ts'

export type Pool = pg.Pool
export type Database = NodePgDatabase<Record<string, never>>

// Queries name their schema (Drizzle's pgSchema does): connection-level settings such as
// search_path are not reliable behind the embedded database's connection multiplexer.
export interface PoolOptions {
  url: string
  max?: number
  applicationName?: string
}

/** Whether a query failed with this PostgreSQL error code (as pg reports it, or as drizzle wraps it). */
export function isPostgresError(err: unknown, code: string): boolean {
  return (
    (err as { code?: string }).code === code ||
    (err as { cause?: { code?: string } }).cause?.code === code
  )
}

/** Anything that runs Drizzle's `sql`: the database or a transaction of it. */
export interface Executor {
  execute: Database['execute']
}

/**
 * The rows of a statement written with Drizzle's `sql` (what the query builder cannot say), as
 * the type the caller names: the one place where result rows are cast.
 */
export async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[]
}

export function createPool(options: PoolOptions): Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: options.applicationName,
  })
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  return pool
}

export function createDatabase(pool: Pool): Database {
  return drizzle(pool)
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

export interface MigrationResult {
  applied: string[]
  skipped: number
}

/**
 * Applies the service's SQL migrations (files `NNNN_name.sql`, in name order), each in its own
 * transaction, once. Two starting replicas never race: each transaction takes the schema's
 * advisory lock for itself (`pg_advisory_xact_lock`) and reads which migrations are done under
 * it. Locks held for a transaction, not for a session, are what a transaction-mode pooler
 * (PgBouncer, deploy/) allows: it hands each transaction any server connection, so a session
 * lock held one connection while the replica's next statements ran on others, unguarded, and
 * replicas starting at once applied the same migration twice (packages/kit/test/db-pooler.test.ts).
 */
export async function runMigrations(
  pool: Pool,
  options: { schema: string; dir: string; log?: Pick<Logger, 'info'> },
): Promise<MigrationResult> {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`Invalid schema name ${options.schema}`)
  const files = (await readdir(options.dir).catch(() => [] as string[]))
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
  const client = await pool.connect()
  const schema = `"${options.schema}"`
  const lock = () =>
    client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`migrations:${options.schema}`])
  /** `work` in a transaction that holds the lock; rolled back whole when it throws. */
  const locked = async <T>(work: () => Promise<T>): Promise<T> => {
    await client.query('BEGIN')
    try {
      await lock()
      const result = await work()
      await client.query('COMMIT')
      return result
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {})
      throw err
    }
  }
  const done = async () =>
    new Set(
      (await client.query<{ name: string }>(`SELECT name FROM ${schema}._migrations`)).rows.map(
        (r) => r.name,
      ),
    )
  try {
    await locked(async () => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}._migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      )
    })
    const applied: string[] = []
    for (const file of files) {
      if ((await done()).has(file)) continue
      const sql = await readFile(join(options.dir, file), 'utf8')
      const ran = await locked(async () => {
        // Read again under the lock: another replica may have applied it meanwhile.
        if ((await done()).has(file)) return false
        await client.query(`SET LOCAL search_path TO ${schema}, public`)
        await client.query(sql)
        await client.query(`INSERT INTO ${schema}._migrations (name) VALUES ($1)`, [file])
        return true
      }).catch((err: Error) => {
        throw new Error(`Migration ${options.schema}/${file} failed: ${err.message}`, {
          cause: err,
        })
      })
      if (!ran) continue
      applied.push(file)
      options.log?.info({ migration: file, schema: options.schema }, 'migration applied')
    }
    return { applied, skipped: files.length - applied.length }
  } finally {
    client.release()
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    pg: Pool
    db: Database
  }
}

export interface DatabasePluginOptions {
  url: string
  schema: string
  migrationsDir: string
  max?: number
}

/** PostgreSQL for one service schema: pool, Drizzle, migrations applied at start, readiness. */
export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, options) => {
    const pool = createPool({
      url: options.url,
      max: options.max ?? 10,
      applicationName: app.config.SERVICE_NAME,
    })
    app.addHook('onClose', async () => pool.end())
    await runMigrations(pool, { schema: options.schema, dir: options.migrationsDir, log: app.log })
    app.decorate('pg', pool)
    app.decorate('db', createDatabase(pool))
    app.readiness.set('database', async () => {
      await pool.query('SELECT 1')
    })
  },
  { name: 'crv-database', dependencies: ['crv-base'] },
)
