// What autovacuum does on a PostgreSQL server, for the embedded database: PGlite runs no
// background workers, so without this its tables are never analysed (the planner keeps the
// row counts of their creation: a practice start on a pool of 5,000 targets took 83 ms by a
// nested loop instead of 11 ms by a hash join) and never vacuumed (every session is updated
// three or four times, and the dead rows stay). Each table that autovacuum would maintain is
// vacuumed or analysed in turn, as any client through the socket, so the other connections'
// queries go between the tables.
import pg from 'pg'

/** A table with the counts autovacuum decides by. */
interface TableActivity {
  name: string
  /** Rows as of the last VACUUM or ANALYZE; -1 when never analysed. */
  reltuples: number
  dead: number
  insertedSinceVacuum: number
  modifiedSinceAnalyze: number
}

/**
 * Every table outside the system schemas, with its counts. PGlite is one backend for every
 * connection and never reaches the idle moment at which a backend publishes its counts, so they
 * are published first (without it they read 0 for ever).
 */
async function tableActivity(client: pg.Client): Promise<TableActivity[]> {
  await client.query('SELECT pg_stat_force_next_flush()')
  const { rows } = await client.query<TableActivity>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name, c.reltuples::float8 AS reltuples,
            s.n_dead_tup::float8 AS dead, s.n_ins_since_vacuum::float8 AS "insertedSinceVacuum",
            s.n_mod_since_analyze::float8 AS "modifiedSinceAnalyze"
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     ORDER BY s.schemaname, s.relname`,
  )
  return rows
}

/**
 * What autovacuum would do to a table now, by PostgreSQL's default thresholds: VACUUM past 50
 * dead rows + 20 % of the table (or 1,000 inserted + 20 %), ANALYZE past 50 changed + 10 %.
 * PGlite has one thread for every query, so a table left alone costs nothing, while an ANALYZE
 * of 50,000 practice sessions held it for 340 ms and the whole round ~700 ms: run every quarter
 * of an hour regardless, that was the practice bench's p99 (issue [24]).
 */
export function maintenanceOf(
  table: TableActivity,
): 'VACUUM (ANALYZE)' | 'VACUUM' | 'ANALYZE' | null {
  const rows = Math.max(0, table.reltuples)
  const vacuum =
    table.reltuples < 0 ||
    table.dead > 50 + 0.2 * rows ||
    table.insertedSinceVacuum > 1000 + 0.2 * rows
  const analyze = table.reltuples < 0 || table.modifiedSinceAnalyze > 50 + 0.1 * rows
  return vacuum && analyze ? 'VACUUM (ANALYZE)' : vacuum ? 'VACUUM' : analyze ? 'ANALYZE' : null
}

/**
 * VACUUM and ANALYZE of the tables of the database at `url` that need them (`all`: every
 * table); answers how many were maintained.
 */
export async function maintainTables(
  url: string,
  options: { all?: boolean } = {},
): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'maintenance' })
  await client.connect()
  try {
    let maintained = 0
    for (const table of await tableActivity(client)) {
      const command = options.all ? 'VACUUM (ANALYZE)' : maintenanceOf(table)
      if (!command) continue
      await client.query(`${command} ${table.name}`)
      maintained += 1
    }
    return maintained
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
