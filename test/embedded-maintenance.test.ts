// The embedded database runs no autovacuum: the launcher's database process vacuums and analyses
// every table itself, as a client through its socket. Without it the planner keeps the row
// counts of a table's creation and picks plans for empty tables.
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maintainTables } from '@crv/kit/embedded-maintenance'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'
import type { EmbeddedServer } from '@crv/kit/embedded-server'

let db: PGlite
let server: EmbeddedServer
beforeAll(async () => {
  db = await PGlite.create()
  server = await serveEmbeddedDatabase(db, { maxConnections: 4 })
})
afterAll(async () => {
  await server.stop()
  await db.close()
})

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.url })
  await client.connect()
  try {
    return (await client.query<T>(sql)).rows
  } finally {
    await client.end()
  }
}

describe('the embedded database’s maintenance', () => {
  it('analyses and vacuums every table, so the planner knows their sizes', async () => {
    await query(`CREATE SCHEMA practice;
      CREATE TABLE practice.targets (id int PRIMARY KEY, pool int);
      INSERT INTO practice.targets SELECT i, i % 3 FROM generate_series(1, 5000) i;
      UPDATE practice.targets SET pool = pool + 1 WHERE id <= 2000;`)
    const stats = () =>
      query<{ reltuples: number; dead: string; analysed: Date | null }>(
        `SELECT c.reltuples, s.n_dead_tup AS dead, s.last_analyze AS analysed
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
         WHERE c.relname = 'targets'`,
      )
    // Never analysed: PostgreSQL's "unknown" (-1), whatever the table holds.
    expect((await stats())[0]?.reltuples).toBe(-1)
    expect(await maintainTables(server.url)).toBe(1)
    const [after] = await stats()
    expect(after?.reltuples).toBe(5000)
    expect(after?.analysed).toBeInstanceOf(Date)
    expect(Number(after?.dead)).toBe(0)
  })

  it('leaves a table alone until it changed as much as autovacuum waits for', async () => {
    await query(`CREATE TABLE practice.sessions (id int PRIMARY KEY, judged boolean);
      INSERT INTO practice.sessions SELECT i, false FROM generate_series(1, 10000) i;`)
    const analysed = async () =>
      (
        await query<{ at: Date | null }>(
          `SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'sessions'`,
        )
      )[0]?.at
    await maintainTables(server.url)
    const first = await analysed()
    expect(first).toBeInstanceOf(Date)
    // 40 changed rows of 10,000: below 50 + 10 %, as below 50 + 20 % dead.
    await query(`UPDATE practice.sessions SET judged = true WHERE id <= 40`)
    expect(await maintainTables(server.url)).toBe(0)
    expect(await analysed()).toEqual(first)
    // 1,500 changed: past ANALYZE's 1,050, short of VACUUM's 2,050 dead rows.
    await query(`UPDATE practice.sessions SET judged = true WHERE id > 40 AND id <= 1540`)
    expect(await maintainTables(server.url)).toBe(1)
    const [after] = await query<{ at: Date | null; dead: string }>(
      `SELECT last_analyze AS at, n_dead_tup AS dead FROM pg_stat_user_tables
       WHERE relname = 'sessions'`,
    )
    expect(after?.at?.getTime()).toBeGreaterThan(first?.getTime() ?? Infinity)
    expect(Number(after?.dead)).toBeGreaterThan(1000)
    expect(await maintainTables(server.url, { all: true })).toBe(2)
  })
})
