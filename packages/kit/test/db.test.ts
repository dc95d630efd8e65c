import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createPool, runMigrations } from '../src/db.ts'
import { testDatabaseUrl } from '../src/testing/index.ts'

const pool = createPool({ url: testDatabaseUrl(), max: 2 })
afterAll(() => pool.end())

const schemaName = () => `t_${randomBytes(6).toString('hex')}`

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crv-migrations-'))
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql)
  return dir
}

describe('runMigrations', () => {
  it('applies each migration once, in name order, inside the service schema', async () => {
    const schema = schemaName()
    const dir = await migrationsDir({
      '0002_add_column.sql': 'ALTER TABLE notes ADD COLUMN done boolean NOT NULL DEFAULT false;',
      '0001_create.sql': 'CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL);',
      'README.md': 'not a migration',
    })
    const first = await runMigrations(pool, { schema, dir })
    expect(first.applied).toEqual(['0001_create.sql', '0002_add_column.sql'])
    await pool.query(`INSERT INTO ${schema}.notes (text) VALUES ('kept')`)

    const again = await runMigrations(pool, { schema, dir })
    expect(again).toEqual({ applied: [], skipped: 2 })
    const rows = await pool.query(`SELECT text, done FROM ${schema}.notes`)
    expect(rows.rows).toEqual([{ text: 'kept', done: false }])
  })

  it('rolls a failing migration back whole and names it', async () => {
    const schema = schemaName()
    const dir = await migrationsDir({
      '0001_ok.sql': 'CREATE TABLE a (id int);',
      '0002_broken.sql': 'CREATE TABLE b (id int); SELECT no_such_function();',
    })
    await expect(runMigrations(pool, { schema, dir })).rejects.toThrow(
      `Migration ${schema}/0002_broken.sql failed`,
    )
    const tables = await pool.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    )
    expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual([
      '_migrations',
      'a',
    ])
    const applied = await pool.query(`SELECT name FROM ${schema}._migrations`)
    expect(applied.rows).toEqual([{ name: '0001_ok.sql' }])
  })

  it('refuses a schema name that is not an identifier', async () => {
    await expect(
      runMigrations(pool, { schema: 'x; DROP TABLE y', dir: '/nonexistent' }),
    ).rejects.toThrow(/Invalid schema name/)
  })
})
