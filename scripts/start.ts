// `npm start`: the whole app on one machine with nothing else installed. Starts the embedded
// PostgreSQL when DATABASE_URL is unset, every service and the gateway as separate processes,
// waits until all are ready, restarts a crashed child with backoff, and stops everything on
// Ctrl-C. `--watch` restarts a service when its code changes (npm run dev).
import { fork, spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { newSocketDir } from '@crv/kit/embedded-server'
import { freePorts } from './lib/ports.ts'
import { launcherLog, prefixer } from './lib/log.ts'
import { buildFrontend, frontendIsStale } from './lib/frontend.ts'
import { GATEWAY_NODE_FLAGS, SERVICE_NODE_FLAGS, serviceNodeFlags } from './lib/node-flags.ts'
import { publishEmbeddedDatabase, unpublishEmbeddedDatabase } from './lib/embedded-db.ts'
import {
  devOutboxKeyFile,
  publishDevOutboxKey,
  unpublishDevOutboxKey,
} from './lib/dev-outbox-key.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const watch = process.argv.includes('--watch') || process.argv.includes('--dev')
const started = performance.now()

const SERVICES = ['auth', 'descriptors', 'media', 'ai', 'astro', 'practice'] as const
const NAME_WIDTH = 11
const CONFIG_ERROR = 78

const port = Number(process.env.PORT ?? 8080)
const dataDir = resolve(process.env.DATA_DIR ?? join(root, 'data'))
// The database, the keys and the stored pictures (sealed targets among them): this account's
// alone, also for a data directory made before it was 0700.
mkdirSync(dataDir, { recursive: true, mode: 0o700 })
chmodSync(dataDir, 0o700)

interface Child {
  name: string
  index: number
  start: () => ChildProcess
  process?: ChildProcess
  restarts: number
  upSince: number
  timer?: NodeJS.Timeout
}

const children: Child[] = []
let stopping = false
// The embedded database's socket directory (mode 0700), the same for each of its restarts.
let socketDir: string | undefined

function pipe(child: ChildProcess, name: string, index: number) {
  const print = prefixer(name, index, NAME_WIDTH)
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', print)
  }
}

function supervise(name: string, start: () => ChildProcess): Child {
  const entry: Child = { name, index: children.length, start, restarts: 0, upSince: 0 }
  children.push(entry)
  const run = () => {
    const child = entry.start()
    entry.process = child
    entry.upSince = Date.now()
    launcherLog(`${name} started (pid ${child.pid ?? '?'})`)
    pipe(child, name, entry.index)
    child.on('exit', (code, signal) => {
      if (stopping) return
      // 78 (EX_CONFIG): the child refused its configuration; restarting cannot help.
      if (code === CONFIG_ERROR) {
        launcherLog(`${name} cannot start with this configuration (see above); stopping`)
        void stopAll(1)
        return
      }
      // A child that stayed up a minute earned a fresh backoff.
      if (Date.now() - entry.upSince > 60_000) entry.restarts = 0
      const delay = Math.min(1000 * 2 ** entry.restarts, 30_000)
      entry.restarts += 1
      launcherLog(`${name} exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`)
      entry.timer = setTimeout(run, delay)
    })
  }
  run()
  return entry
}

async function stopAll(exitCode: number) {
  if (stopping) return
  stopping = true
  launcherLog('stopping…')
  const byName = (names: (n: string) => boolean) => children.filter((c) => names(c.name))
  // The gateway first (no new requests), then the services, the database last.
  for (const group of [
    byName((n) => n === 'gateway'),
    byName((n) => n !== 'gateway' && n !== 'postgres'),
    byName((n) => n === 'postgres'),
  ]) {
    await Promise.all(
      group.map(
        (c) =>
          new Promise<void>((done) => {
            if (c.timer) clearTimeout(c.timer)
            const p = c.process
            if (!p || p.exitCode !== null || p.signalCode !== null) return done()
            const kill = setTimeout(() => p.kill('SIGKILL'), 12_000)
            p.once('exit', () => {
              clearTimeout(kill)
              done()
            })
            p.kill('SIGTERM')
          }),
      ),
    )
  }
  unpublishEmbeddedDatabase(dataDir)
  if (socketDir) rmSync(socketDir, { recursive: true, force: true })
  unpublishDevOutboxKey(dataDir)
  launcherLog('stopped')
  process.exit(exitCode)
}

process.on('SIGINT', () => void stopAll(0))
process.on('SIGTERM', () => void stopAll(0))

async function startEmbeddedPostgres(): Promise<string> {
  const pgDir = join(dataDir, 'postgres')
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    launcherLog(`creating the embedded database in ${pgDir}…`)
    const init = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'embedded-postgres.ts'), '--init-only'],
      {
        env: { ...process.env, PGLITE_DIR: pgDir },
        stdio: 'inherit',
      },
    )
    if (init.status !== 0) throw new Error('could not create the embedded database')
  }
  // A Unix socket only this account can reach, not a TCP port: PGlite asks no password
  // (packages/kit/src/embedded-server.ts).
  const dir = await newSocketDir()
  socketDir = dir
  return new Promise((resolveUrl, reject) => {
    let first = true
    supervise('postgres', () => {
      const child = fork(join(root, 'scripts', 'embedded-postgres.ts'), [], {
        env: { ...process.env, PGLITE_DIR: pgDir, PGLITE_SOCKET_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      })
      child.on('message', (m: { ready?: boolean; url?: string }) => {
        if (m.ready && m.url) publishEmbeddedDatabase(dataDir, m.url, process.pid)
        if (m.ready && m.url && first) {
          first = false
          resolveUrl(m.url)
        }
      })
      child.once('exit', (code) => {
        if (first) reject(new Error(`embedded PostgreSQL failed to start (code ${code})`))
      })
      return child
    })
  })
}

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (stopping) return
    const ok = await fetch(url, { signal: AbortSignal.timeout(1_000) })
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s`)
}

try {
  if (frontendIsStale()) {
    launcherLog('building the frontend…')
    buildFrontend()
  }

  const embedded = !process.env.DATABASE_URL
  const databaseUrl = process.env.DATABASE_URL || (await startEmbeddedPostgres())

  // The gateway's port is not bound yet: no service may be handed it.
  const servicePorts = await freePorts(SERVICES.length, [port])
  const ports = Object.fromEntries(SERVICES.map((s, i) => [s, servicePorts[i] as number]))
  const urlOf = (s: (typeof SERVICES)[number]) => `http://127.0.0.1:${ports[s]}`
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    // The embedded database multiplexes one session: keep the pools small.
    ...(embedded ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? '3' } : {}),
    // One descriptors process serves every write of a user's words and hides, so it may keep
    // them (services/descriptors/src/vocabulary/user-cache.ts).
    USER_STATE_CACHE: process.env.USER_STATE_CACHE ?? 'local',
    AUTH_JWKS_URL: `${urlOf('auth')}/api/auth/jwks.json`,
    // The media service voices custom gestalts through the speech service.
    AI_URL: urlOf('ai'),
    // The media service reads the tachistoscope setting from the descriptors service.
    DESCRIPTORS_URL: urlOf('descriptors'),
    // The practice service records the local sidereal time of each session.
    ASTRO_URL: urlOf('astro'),
    // Deleting an account (the auth service) deletes the user's data in these first.
    MEDIA_URL: urlOf('media'),
    PRACTICE_URL: urlOf('practice'),
  }
  const node = (cwd: string, env: NodeJS.ProcessEnv, flags: string[]) => () =>
    spawn(process.execPath, [...flags, ...(watch ? ['--watch'] : []), 'src/server.ts'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })

  // The dev SMS outbox answers a request with this key even through a proxy on this machine,
  // which it refuses otherwise (services/auth/src/dev-outbox.ts).
  const outboxKey =
    common.NODE_ENV !== 'production' && (process.env.SMS_PROVIDER ?? 'console') === 'console'
      ? publishDevOutboxKey(dataDir, process.env.DEV_OUTBOX_KEY)
      : undefined
  const envOf = (s: (typeof SERVICES)[number]): NodeJS.ProcessEnv => ({
    ...common,
    PORT: String(ports[s]),
    ...(s === 'auth' && outboxKey ? { DEV_OUTBOX_KEY: outboxKey } : {}),
  })
  for (const s of SERVICES) {
    supervise(s, node(join(root, 'services', s), envOf(s), serviceNodeFlags(s)))
  }
  // With Redis, speech runs on the queue: one worker process (ops scale them separately).
  if (process.env.REDIS_URL) {
    supervise('ai-worker', () =>
      spawn(
        process.execPath,
        [...SERVICE_NODE_FLAGS, ...(watch ? ['--watch'] : []), 'src/worker.ts'],
        {
          cwd: join(root, 'services', 'ai'),
          env: common,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    )
  }
  await Promise.all(SERVICES.map((s) => waitReady(`${urlOf(s)}/ready`, 120_000)))

  supervise(
    'gateway',
    node(
      join(root, 'gateway'),
      {
        ...common,
        PORT: String(port),
        // Loopback unless HOST says otherwise: the app is safe to leave running on a laptop.
        HOST: process.env.HOST ?? '127.0.0.1',
        AUTH_URL: urlOf('auth'),
        DESCRIPTORS_URL: urlOf('descriptors'),
        MEDIA_URL: urlOf('media'),
        AI_URL: urlOf('ai'),
        ASTRO_URL: urlOf('astro'),
        PRACTICE_URL: urlOf('practice'),
      },
      GATEWAY_NODE_FLAGS,
    ),
  )
  await waitReady(`http://127.0.0.1:${port}/api/health`, 30_000)
  launcherLog(
    `ready in ${((performance.now() - started) / 1000).toFixed(1)} s (data in ${dataDir}${embedded ? ', embedded PostgreSQL' : ''})`,
  )
  if (outboxKey)
    launcherLog(
      `dev SMS outbox key: ${outboxKey} (header x-dev-outbox-key; also in ${devOutboxKeyFile(dataDir)})`,
    )
  process.stdout.write(`CRV Training is ready at http://localhost:${port}\n`)
} catch (err) {
  launcherLog(`could not start: ${(err as Error).message}`)
  await stopAll(1)
}
