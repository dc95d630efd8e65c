// The embedded database of `npm start`: one PGlite (PostgreSQL compiled to WebAssembly) on a
// data directory, shared with every service through the Postgres wire protocol on a Unix socket
// that only this account can reach (packages/kit/src/embedded-server.ts). One process per data
// directory, never two (PGlite does not lock it).
import { chmod, mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { scheduleMaintenance } from '@crv/kit/embedded-maintenance'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'

const dataDir = process.env.PGLITE_DIR
// The launcher's, kept across restarts so the services' URL stays right; else one of our own.
const socketDir = process.env.PGLITE_SOCKET_DIR || undefined

// 32 MB of shared buffers instead of 128 MB: the vocabulary is small, and this keeps the
// embedded database near 240 MB resident (docs/decisions.md).
const postgresqlconf = ['shared_buffers=32MB']

const started = performance.now()
if (dataDir) {
  // PGlite writes its files readable and writable by everyone (mode 0666): the directory is
  // what keeps other accounts out, also of a data directory made before it was 0700.
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  await chmod(dataDir, 0o700)
}
const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), postgresqlconf })
if (process.argv.includes('--init-only')) {
  // Creating a data directory peaks near 700 MB, which the process would keep; the launcher
  // runs it in a process of its own and serves from a fresh one.
  await db.close()
  process.exit(0)
}
const server = await serveEmbeddedDatabase(db, { socketDir, maxConnections: 64 })
const { url } = server
process.stdout.write(
  `${JSON.stringify({ level: 30, msg: 'embedded PostgreSQL ready', url, dataDir: dataDir ?? 'memory', ms: Math.round(performance.now() - started) })}\n`,
)
process.send?.({ ready: true, url })

// PGlite has no autovacuum: the tables are vacuumed and analysed a minute after the start and
// then every EMBEDDED_MAINTENANCE_MINUTES (packages/kit/src/embedded-maintenance.ts).
const everyMinutes = Number(process.env.EMBEDDED_MAINTENANCE_MINUTES ?? 15)
const stopMaintenance =
  everyMinutes > 0
    ? scheduleMaintenance(url, {
        firstMs: Math.min(60_000, everyMinutes * 60_000),
        everyMs: everyMinutes * 60_000,
        onError: (err) =>
          process.stdout.write(
            `${JSON.stringify({ level: 40, msg: 'embedded PostgreSQL maintenance failed', err: String(err) })}\n`,
          ),
      })
    : () => {}

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  stopMaintenance()
  await server.stop().catch(() => {})
  await db.close().catch(() => {})
  process.exit(0)
}
process.on('SIGTERM', stop)
// Under the launcher, Ctrl-C reaches every process at once: the database waits for the
// launcher's SIGTERM, which comes after the services have closed their connections.
process.on('SIGINT', () => {
  if (!process.send) void stop()
})
process.on('disconnect', stop)
