// `npm start` as a user runs it: ready line, a crashed service's routes answer 503 while the
// others keep answering and the launcher brings it back, Ctrl-C stops every process, and the
// data directory survives a restart.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../scripts/lib/ports.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const dataDir = await mkdtemp(join(tmpdir(), 'crv-launcher-'))
// As a directory made by hand (mkdtemp's are private already): the launcher must close it.
await chmod(dataDir, 0o755)
afterAll(() => rm(dataDir, { recursive: true, force: true }))

interface Running {
  app: ChildProcess
  base: string
  log: () => string
}

async function start(): Promise<Running> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    NO_COLOR: '1',
  }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  const app = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  app.stdout.on('data', (c: Buffer) => (output += c.toString()))
  app.stderr.on('data', (c: Buffer) => (output += c.toString()))
  await until(
    () => output.includes(`CRV Training is ready at http://localhost:${port}`),
    150_000,
    () => output,
  )
  return { app, base: `http://127.0.0.1:${port}`, log: () => output }
}

async function until(
  check: () => boolean | Promise<boolean>,
  ms: number,
  why: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms\n${why()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const pidOf = (log: string, name: string) => {
  const all = [...log.matchAll(new RegExp(`${name} started \\(pid (\\d+)\\)`, 'g'))]
  return Number(all.at(-1)?.[1])
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
const status = (url: string) => fetch(url).then((r) => r.status)

/** The local addresses with a listening TCP socket on `port`, read from the kernel's tables. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  const LISTEN = '0A'
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[1]?.endsWith(`:${hexPort}`) && cols[3] === LISTEN)
      .map((cols) => {
        const hex = cols[1]?.split(':')[0] ?? ''
        if (hex.length !== 8) return hex === '00000000000000000000000001000000' ? '::1' : hex
        // IPv4, little-endian.
        return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.')
      }),
  )
}

describe('the launcher', () => {
  it(
    'runs the app, survives a crashed service, stops cleanly and keeps its data',
    { timeout: 300_000 },
    async () => {
      const first = await start()
      const health = (await fetch(`${first.base}/api/health`).then((r) => r.json())) as {
        status: string
        services: Record<string, unknown>
      }
      expect(Object.keys(health.services).sort()).toEqual([
        'ai',
        'astro',
        'auth',
        'descriptors',
        'media',
        'practice',
      ])
      expect(health.status).toBe('ok')

      // Safe to leave running: the gateway listens on loopback only, so the network (and the
      // development outbox of sign-in codes) cannot reach it.
      expect(listeningAddresses(Number(new URL(first.base).port))).toEqual(['127.0.0.1'])

      // The outbox's key for this start: printed, readable by this account only, and what the
      // outbox asks of a request a proxy passed on.
      const key = /dev SMS outbox key: (\S+)/.exec(first.log())?.[1] ?? ''
      expect(key.length).toBeGreaterThanOrEqual(32)
      const keyFile = join(dataDir, 'run', 'dev-outbox-key')
      expect(readFileSync(keyFile, 'utf8').trim()).toBe(key)
      expect(statSync(keyFile).mode & 0o777).toBe(0o600)
      // The data directory (database, keys, stored pictures) is this account's alone.
      expect(statSync(dataDir).mode & 0o777).toBe(0o700)
      const outbox = `${first.base}/api/auth/dev/sms-outbox`
      expect(await status(outbox)).toBe(200)
      const proxied = { via: '1.1 proxy' }
      expect((await fetch(outbox, { headers: proxied })).status).toBe(404)
      const withKey = { ...proxied, 'x-dev-outbox-key': key }
      expect((await fetch(outbox, { headers: withKey })).status).toBe(200)

      // A row written now must be there after a restart.
      const url = /"url":"([^"]+)"/.exec(first.log())?.[1]
      expect(url).toBeTruthy()
      const db = new pg.Client({ connectionString: url })
      await db.connect()
      await db.query('CREATE TABLE IF NOT EXISTS public.launcher_test (note text)')
      await db.query("INSERT INTO public.launcher_test VALUES ('kept')")
      await db.end()

      const astro = pidOf(first.log(), 'astro')
      process.kill(astro, 'SIGKILL')
      const killedAt = Date.now()
      await until(
        async () => (await status(`${first.base}/api/sidereal-time/auto?lat=1&lng=2`)) === 503,
        2_000,
      )
      expect(Date.now() - killedAt).toBeLessThan(2_000)
      const down = (await fetch(`${first.base}/api/sidereal-time/auto?lat=1&lng=2`).then((r) =>
        r.json(),
      )) as { error: { code: string } }
      expect(down.error.code).toBe('service_unavailable')
      expect(await status(`${first.base}/api/custom-words`)).toBe(401)
      await until(
        async () => (await status(`${first.base}/api/sidereal-time/auto?lat=1&lng=2`)) === 200,
        30_000,
        first.log,
      )
      expect(first.log()).toMatch(/astro exited \(SIGKILL\); restarting/)

      const children = ['postgres', 'auth', 'descriptors', 'media', 'ai', 'astro', 'gateway'].map(
        (n) => pidOf(first.log(), n),
      )
      const exited = new Promise<number | null>((r) => first.app.once('exit', (code) => r(code)))
      first.app.kill('SIGINT')
      expect(await exited).toBe(0)
      for (const pid of children) expect(alive(pid), `pid ${pid}`).toBe(false)
      expect(existsSync(keyFile)).toBe(false)
      // The embedded database's private socket directory goes with it.
      const socketDir = decodeURIComponent(new URL(url ?? '').hostname)
      expect(socketDir).toMatch(/crv-pg-/)
      expect(existsSync(socketDir)).toBe(false)

      const second = await start()
      expect(/dev SMS outbox key: (\S+)/.exec(second.log())?.[1]).not.toBe(key)
      const url2 = /"url":"([^"]+)"/.exec(second.log())?.[1]
      const db2 = new pg.Client({ connectionString: url2 })
      await db2.connect()
      expect((await db2.query('SELECT note FROM public.launcher_test')).rows).toEqual([
        { note: 'kept' },
      ])
      await db2.end()
      const exited2 = new Promise((r) => second.app.once('exit', r))
      second.app.kill('SIGINT')
      await exited2
    },
  )
})
