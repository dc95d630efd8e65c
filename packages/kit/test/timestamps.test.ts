// Times read back from PostgreSQL must be the instants that were written, whatever the year and
// the session's time zone: JavaScript's own parser took the text of year 0001 for 2001.
import { afterAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { createDatabase } from '@crv/kit/db'
import { testDatabaseUrl } from '@crv/kit/testing'
import { fromPostgresTimestamp } from '../src/timestamps.ts'

describe('a PostgreSQL timestamp read back', () => {
  it('is the instant PostgreSQL printed, in every year and offset it prints', () => {
    const cases: [string, string][] = [
      ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
      ['0049-12-31 23:59:59.999+00', '0049-12-31T23:59:59.999Z'],
      ['0099-05-01 12:00:00+00', '0099-05-01T12:00:00.000Z'],
      ['1969-12-31 23:59:59.999+00', '1969-12-31T23:59:59.999Z'],
      ['2026-11-27 11:20:25.404+00', '2026-11-27T11:20:25.404Z'],
      ['2026-11-27 12:20:25.404123+01', '2026-11-27T11:20:25.404Z'],
      ['2026-11-27 16:50:25+05:30', '2026-11-27T11:20:25.000Z'],
      ['2026-11-27 07:50:25-03:30', '2026-11-27T11:20:25.000Z'],
      // Local mean time: the offset of an old date can have seconds.
      ['0001-01-01 00:53:28+00:53:28', '0001-01-01T00:00:00.000Z'],
      ['0001-12-31 00:00:00+00 BC', '0000-12-31T00:00:00.000Z'],
      ['12345-01-01 00:00:00+00', '+012345-01-01T00:00:00.000Z'],
    ]
    for (const [text, iso] of cases)
      expect(fromPostgresTimestamp(text).toISOString(), text).toBe(iso)
    expect(fromPostgresTimestamp(new Date(0)).getTime()).toBe(0)
  })

  it('keeps every date written through the service’s driver, in UTC and other session zones', async () => {
    const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 })
    afterAll(() => pool.end())
    const db = createDatabase(pool)
    const instants = [
      '0001-01-01T00:00:00.000Z',
      '0050-07-01T12:34:56.789Z',
      '0099-12-31T23:59:59.999Z',
      '0100-01-01T00:00:00.000Z',
      '1900-02-28T00:00:00.000Z',
      '1970-01-01T00:00:00.000Z',
      '2026-03-29T01:30:00.001Z',
      '9999-12-31T23:59:59.999Z',
    ]
    for (const zone of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/St_Johns']) {
      const read = await db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('TimeZone', ${zone}, true)`)
        return Promise.all(
          instants.map(
            async (at) =>
              (await tx.execute(sql`SELECT ${at}::timestamptz AS at`)).rows[0]?.at as string,
          ),
        )
      })
      expect(
        read.map((text) => fromPostgresTimestamp(text).toISOString()),
        zone,
      ).toEqual(instants)
    }
  })
})
