// What autovacuum does on a PostgreSQL server, for the embedded database: PGlite runs no
// background workers, so without this its tables are never analysed (the planner keeps the
// row counts of their creation: a practice start on a pool of 5,000 targets took 83 ms by a
// nested loop instead of 11 ms by a hash join) and never vacuumed (every session is updated
// three or four times, and the dead rows stay). Each table is VACUUM (ANALYZE)d in turn, as
// any client through the socket, so the other connections' queries go between the tables.
import pg from 'pg'

/** Every table outside the system schemas, as `"schema"."table"`. */
async function userTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables
     ORDER BY schemaname, relname`,
  )
  return rows.map((r) => r.name)
}

/** VACUUM (ANALYZE) of every table of the database at `url`; answers how many. */
export async function maintainTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'maintenance' })
  await client.connect()
  try {
    const tables = await userTables(client)
    for (const table of tables) await client.query(`VACUUM (ANALYZE) ${table}`)
    return tables.length
  } finally {
    await client.end()
  }
}

/**
 * Maintains the database at `url` every `everyMs`, the first time `firstMs` after the start (the
 * services have migrated and seeded by then). A failed round is reported and the next one runs.
 */
export function scheduleMaintenance(
  url: string,
  options: { firstMs: number; everyMs: number; onError: (err: unknown) => void },
): () => void {
  let timer: NodeJS.Timeout
  let stopped = false
  const round = async () => {
    try {
      await maintainTables(url)
    } catch (err) {
      options.onError(err)
    }
    if (!stopped) timer = setTimeout(round, options.everyMs).unref()
  }
  timer = setTimeout(round, options.firstMs).unref()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
