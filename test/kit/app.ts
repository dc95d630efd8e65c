// The whole app as `npm start` runs it (scripts/start.ts), on a fresh data directory: for the
// root suites and the bench. test/launcher.test.ts starts the launcher its own way, since the
// launcher's output, its data directory across restarts and its Ctrl-C are what it checks.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../scripts/lib/ports.ts'
import { untilReady } from '../../scripts/lib/ready.ts'
import { signInByOutbox } from './sign-in.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface RunningApp {
  base: string
  /** The app's data directory (its embedded database publishes its address under run/). */
  dataDir: string
  /** The launcher, leader of its own process group (its services are in the group). */
  process: ChildProcess
  /** Everything the launcher and its services have printed so far. */
  output(): string
  /** The pid of the launcher's child `name` (`astro`, `postgres`…) as it last printed it. */
  pidOf(name: string): number
  /** Signs a phone number in through the development SMS outbox; the access token. */
  signIn(phone: string): Promise<string>
  /** Stops every process of the app (as Ctrl-C does) and removes the data directory. */
  close(): Promise<void>
}

/**
 * How long a start may take: a cold start builds a stale frontend first, and on a busy two-core
 * machine the services then took over two minutes to answer.
 */
const READY_WITHIN_MS = 180_000

/**
 * Starts the whole app on its embedded defaults (no DATABASE_URL, no REDIS_URL), logging
 * warnings only, with `env` over them, and waits for the launcher's ready line.
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'crv-app-'))
  const app = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, which close() signals: the services go with the launcher.
    detached: true,
  })
  let output = ''
  app.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  app.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const close = async () => {
    await stopGroup(app)
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    await untilReady(app, READY_WITHIN_MS)
  } catch (error) {
    await close()
    throw error
  }
  const base = `http://127.0.0.1:${port}`
  return {
    base,
    dataDir,
    process: app,
    output: () => output,
    pidOf: (name) => {
      const all = [...output.matchAll(new RegExp(`${name} started \\(pid (\\d+)\\)`, 'g'))]
      return Number(all.at(-1)?.[1])
    },
    signIn: (phone) => signInByOutbox(base, phone),
    close,
  }
}

function stopGroup(app: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (app.exitCode !== null || app.signalCode !== null) return resolve()
    app.once('exit', () => resolve())
    try {
      if (app.pid) process.kill(-app.pid, 'SIGINT')
    } catch {
      resolve()
    }
  })
}
