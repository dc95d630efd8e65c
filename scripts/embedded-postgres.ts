// The embedded database of `npm start`: one PGlite (PostgreSQL compiled to WebAssembly) on a
// data directory, shared with every service through the Postgres wire protocol. One process
// per data directory, never two (PGlite does not lock it).
import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { ProtocolQueue } from '@crv/kit/protocol-queue'

const dataDir = process.env.PGLITE_DIR
const port = Number(process.env.PORT ?? 0)
const host = '127.0.0.1'

// 32 MB of shared buffers instead of 128 MB: the vocabulary is small, and this keeps the
// embedded database near 240 MB resident (docs/decisions.md).
const postgresqlconf = ['shared_buffers=32MB']

const started = performance.now()
if (dataDir) await mkdir(dataDir, { recursive: true })
const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), postgresqlconf })
if (process.argv.includes('--init-only')) {
  // Creating a data directory peaks near 700 MB, which the process would keep; the launcher
  // runs it in a process of its own and serves from a fresh one.
  await db.close()
  process.exit(0)
}
const server = new PGLiteSocketServer({ db, port, host, maxConnections: 64 })
// Serve each connection's query whole (packages/kit/src/protocol-queue.ts explains why). The
// server hands its queue to each connection as it arrives, so this must precede start().
Object.assign(server, { queryQueue: new ProtocolQueue(db) })
await server.start()
const address = server.getServerConn()
const url = `postgres://postgres@${address}/postgres?sslmode=disable`
process.stdout.write(
  `${JSON.stringify({ level: 30, msg: 'embedded PostgreSQL ready', url, dataDir: dataDir ?? 'memory', ms: Math.round(performance.now() - started) })}\n`,
)
process.send?.({ ready: true, url })

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
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
