// How the embedded database is served: one PGlite over the Postgres wire protocol, on a Unix
// socket in a directory that only this account can enter.
//
// PGlite asks no password: it answers every startup message as its one user. On a TCP port,
// even on loopback, that let any account on the machine read and change everything, sealed
// targets included (issue [23] item 11). The kernel checks who may reach a socket file, and a
// directory of mode 0700 shuts out every other account (docs/security.md says why this and not
// a password).
import { chmod, lstat, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { ProtocolQueue } from './protocol-queue.ts'

// node-postgres and libpq connect to `<host>/.s.PGSQL.<port>` when the host is a directory.
// Nothing else listens in that directory, so the port is only a name.
const PORT = 5432
// sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
const MAX_SOCKET_PATH = 103

export interface EmbeddedServer {
  /** What services connect with: node-postgres and psql read the socket's directory from it. */
  url: string
  socketDir: string
  stop: () => Promise<void>
}

/** A new directory for the socket, mode 0700 (mkdtemp's), under the system's temporary one. */
export const newSocketDir = (): Promise<string> => mkdtemp(join(tmpdir(), 'crv-pg-'))

/**
 * Serves `db` on a Unix socket in `socketDir` (made 0700; it must be this account's own), or in
 * a new directory, removed again by `stop`. Each connection's messages go through the
 * ProtocolQueue (./protocol-queue.ts explains why).
 */
export async function serveEmbeddedDatabase(
  db: PGlite,
  options: { socketDir?: string; maxConnections: number },
): Promise<EmbeddedServer> {
  const socketDir = options.socketDir ?? (await newSocketDir())
  await makePrivate(socketDir)
  const path = join(socketDir, `.s.PGSQL.${PORT}`)
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(`the socket path ${path} is too long for a Unix socket; set a shorter TMPDIR`)
  }
  // A database process killed with SIGKILL leaves its socket file behind, and the launcher
  // restarts it in the same directory.
  if (await answers(path)) throw new Error(`another database already listens on ${path}`)
  await rm(path, { force: true })

  const server = new PGLiteSocketServer({ db, path, maxConnections: options.maxConnections })
  // The server hands its queue to each connection as it arrives, so this precedes start().
  Object.assign(server, { queryQueue: new ProtocolQueue(db) })
  await server.start()
  await chmod(path, 0o600)
  return {
    url: `postgres://postgres@${encodeURIComponent(socketDir)}:${PORT}/postgres?sslmode=disable`,
    socketDir,
    stop: async () => {
      await server.stop()
      await rm(options.socketDir ? path : socketDir, { recursive: true, force: true })
    },
  }
}

async function makePrivate(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const stat = await lstat(dir)
  // A directory someone else made (or a link to one) could let them in, or swap the socket.
  if (!stat.isDirectory() || stat.uid !== process.getuid?.()) {
    throw new Error(`${dir} must be a directory of this account's own`)
  }
  await chmod(dir, 0o700)
}

const answers = (path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
