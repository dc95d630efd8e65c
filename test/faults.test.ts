// Faults under load: the whole app (as `npm start` runs it) on a PostgreSQL server and a Redis
// (AOF) of its own, started here on free ports so the machine's shared servers are never
// touched. While a steady mix of requests runs, a service is killed, PostgreSQL restarts and
// Redis restarts; the app must recover by itself, keep every committed write and never leave a
// request hanging.
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs'
import { randomBytes, randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { loadavg, setPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { sql } from 'drizzle-orm'
import { Job, Queue } from 'bullmq'
import { createRedis } from '@crv/kit'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import mediaApp from '../services/media/src/app.ts'
import { loadMediaConfig } from '../services/media/src/config.ts'
import { freePort } from '../scripts/lib/ports.ts'
import type {
  AttackKind,
  AttackRecord,
  AttackerMessage,
  AttackerOptions,
  AttackerReply,
} from './faults-attacker.ts'
import { startApp } from './kit/app.ts'
import type { RunningApp } from './kit/app.ts'
import { signInByOutbox } from './kit/sign-in.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const PG_BIN = (() => {
  try {
    return execFileSync('pg_config', ['--bindir']).toString().trim()
  } catch {
    return ''
  }
})()
const canRun =
  process.getuid?.() === 0 && existsSync(join(PG_BIN, 'initdb')) && hasCommand('redis-server')
// Each request's own limit: anything slower counts as hanging.
const REQUEST_TIMEOUT_MS = 10_000
// DESIGN.md: services recover by themselves within 5 s of a dependency coming back.
const RECOVERY_MS = 5_000
// The bounded attacker's case: other users' requests a second, and the idle and attack windows
// in turn, 2 s each (five of each: 400 requests idle and 400 under attack, enough for a p99).
const OTHERS_PER_SECOND = 40
const WINDOW_MS = 2_000
const ROUNDS = 5
// The auth service's default PHONE_SENDS_PER_IP_PER_HOUR, which the stack keeps.
const SENDS_PER_CLIENT = 20
const P99_FLOOR_MS = 20

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`])
    return true
  } catch {
    return false
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A process's resident memory in MiB, from the kernel. */
const rssMiB = (pid: number) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
  )

let lastSeen = () => ''

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = Date.now()
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms ${lastSeen()}`)
    await sleep(50)
  }
  return Date.now() - started
}

class Postgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'crv-faults-pg-'))
  port = 0
  private pgCtl(...args: string[]) {
    execFileSync(
      'runuser',
      ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl'), '-D', this.dir, ...args],
      {
        stdio: 'ignore',
      },
    )
  }
  async init() {
    this.port = await freePort()
    chownSync(this.dir, uidOf('postgres'), gidOf('postgres'))
    chmodSync(this.dir, 0o700)
    execFileSync(
      'runuser',
      [
        '-u',
        'postgres',
        '--',
        join(PG_BIN, 'initdb'),
        '-D',
        this.dir,
        '-A',
        'trust',
        '-U',
        'postgres',
      ],
      { stdio: 'ignore' },
    )
    this.start()
  }
  start() {
    this.pgCtl(
      '-w',
      '-l',
      join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
      'start',
    )
  }
  stop() {
    this.pgCtl('-w', '-m', 'fast', 'stop')
  }
  /**
   * A crash, not a shutdown: SIGKILL to the postmaster and every backend at once, as when the
   * machine loses power or the kernel's OOM killer strikes. Nothing is flushed on the way out;
   * the next start replays the write-ahead log.
   */
  async crash() {
    const postmaster = Number(readFileSync(join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0])
    const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
    for (const pid of [postmaster, ...children]) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    while ([postmaster, ...children].some(alive)) await sleep(20)
  }
  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }
  remove() {
    try {
      this.stop()
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true })
  }
}

class RedisServer {
  readonly dir = mkdtempSync(join(tmpdir(), 'crv-faults-redis-'))
  port = 0
  private process: ChildProcess | undefined
  async start() {
    this.port ||= await freePort()
    this.process = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--dir',
        this.dir,
      ],
      { stdio: 'ignore' },
    )
    await until(
      async () => {
        try {
          execFileSync('redis-cli', ['-p', String(this.port), 'ping'], { stdio: 'pipe' })
          return true
        } catch {
          return false
        }
      },
      10_000,
      'redis starts',
    )
  }
  async kill() {
    const p = this.process
    if (!p || p.exitCode !== null) return
    p.kill('SIGKILL')
    await new Promise((r) => p.once('exit', r))
  }
  get url() {
    return `redis://127.0.0.1:${this.port}`
  }
  async remove() {
    await this.kill()
    rmSync(this.dir, { recursive: true, force: true })
  }
}

const uidOf = (user: string) => Number(execFileSync('id', ['-u', user]).toString())
const gidOf = (user: string) => Number(execFileSync('id', ['-g', user]).toString())

interface Sample {
  at: number
  route: string
  status: number
  ms: number
}

/** A steady mix of the app's calls from a few concurrent loops, each request with a timeout. */
class Load {
  readonly samples: Sample[] = []
  private running = true
  private loops: Promise<void>[] = []
  private readonly base: string
  private readonly token: string
  constructor(base: string, token: string) {
    this.base = base
    this.token = token
  }
  start(concurrency = 6) {
    const calls: [string, () => Promise<Response>][] = [
      ['astro', () => this.fetch('/api/sidereal-time/auto?lat=52.52&lng=13.4')],
      ['gestalts', () => this.fetch('/api/gestalts?language=en')],
      ['bulk', () => this.fetch('/api/descriptors/bulk?language=de', this.token)],
      ['mine', () => this.fetch('/api/user/descriptors', this.token)],
      ['options', () => this.fetch('/api/auth/options')],
    ]
    for (let i = 0; i < concurrency; i++) {
      this.loops.push(
        (async () => {
          let n = i
          while (this.running) {
            const [route, call] = calls[n++ % calls.length] as [string, () => Promise<Response>]
            const started = Date.now()
            let status = 0
            try {
              const res = await call()
              status = res.status
              await res.arrayBuffer()
            } catch (err) {
              status = (err as Error).name === 'TimeoutError' ? -1 : 0
            }
            this.samples.push({ at: started, route, status, ms: Date.now() - started })
            await sleep(20)
          }
        })(),
      )
    }
  }
  private fetch(path: string, token?: string) {
    return fetch(this.base + path, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  }
  async stop() {
    this.running = false
    await Promise.all(this.loops)
  }
  since(t: number, route?: string) {
    return this.samples.filter((s) => s.at >= t && (!route || s.route === route))
  }
}

// On a developer's machine without the tools the suite is skipped; in CI a missing tool is a
// failure, or the faults would go untested without anyone noticing.
if (!canRun && process.env.CI) {
  throw new Error(
    `faults need root, PostgreSQL's initdb in ${PG_BIN} and redis-server; .ci/run installs them`,
  )
}

describe.skipIf(!canRun)('faults under load', { timeout: 240_000 }, () => {
  const pg = new Postgres()
  const redis = new RedisServer()
  let app: RunningApp | undefined
  let base = ''
  let token = ''
  let load: Load

  const pidOf = (name: string) => app?.pidOf(name) ?? NaN
  let last = ''
  const ok =
    (path: string, auth = false) =>
    async () => {
      const res = await fetch(base + path, {
        headers: auth ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(2_000),
      })
      last = `${path} → ${res.status} ${(await res.text()).slice(0, 300)}`
      return res.status === 200
    }

  beforeAll(async () => {
    lastSeen = () => `(last: ${last})`
    await pg.init()
    await redis.start()
    app = await startApp({
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      NODE_ENV: 'development',
      RATE_LIMIT_MAX: '1000000',
      // A dead worker's job goes back to the queue after 3 s rather than 30 s.
      SPEECH_JOB_LOCK_MS: '3000',
      // Sixteen long phrases voiced after a restart took over 30 s on a CI machine busy with
      // browsers: the claim here is that the job completes, not how fast.
      SPEECH_TIMEOUT_MS: '90000',
      // The gateway waits longer than the speech service, or it answers 504 first (15 s).
      UPSTREAM_TIMEOUT_MS: '100000',
      NO_COLOR: '1',
    })
    base = app.base
    token = await app.signIn('+15550004242')
    load = new Load(base, token)
    load.start()
    await sleep(1_000)
  }, 180_000)

  afterAll(async () => {
    await load?.stop()
    await app?.close()
    pg.remove()
    await redis.remove()
  })

  it('a killed service: its routes 503 at once, the others keep answering, it comes back', async () => {
    const killedAt = Date.now()
    process.kill(pidOf('descriptors'), 'SIGKILL')
    const down = await until(
      async () => (await fetch(`${base}/api/gestalts?language=en`)).status === 503,
      5_000,
      'descriptors routes answer 503',
    )
    const back = await until(ok('/api/gestalts?language=en'), 30_000, 'descriptors is back')
    const meanwhile = load.since(killedAt, 'astro')
    expect(meanwhile.length).toBeGreaterThan(0)
    expect(meanwhile.filter((s) => s.status !== 200)).toEqual([])
    console.info(`faults: descriptors killed → 503 after ${down} ms, back after ${back} ms`)
  })

  it('a speech worker killed mid-job: the job completes on its successor', async () => {
    const connection = createRedis(redis.url, { blocking: true })
    connection.on('error', () => {})
    const queue = new Queue('speech', { connection })
    try {
      // Long phrases, all new, so that the worker is busy for a while.
      const stamp = Date.now().toString(36)
      const phrases = Array.from(
        { length: 16 },
        (_, i) => `the quiet granite harbour at dusk, stone ${i} of ${stamp}`,
      )
      const answers = phrases.map((word) =>
        fetch(`${base}/api/ai/speech`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ word, language: 'en' }),
          signal: AbortSignal.timeout(120_000),
        }).then(async (res) => ({
          status: res.status,
          bytes: (await res.arrayBuffer()).byteLength,
        })),
      )
      // Killed while a job is active: the dead worker can no longer move it, so it stays active
      // until its lock runs out and the next worker takes it back.
      const worker = pidOf('ai-worker')
      await until(async () => (await queue.getActiveCount()) > 0, 20_000, 'a job is active')
      process.kill(worker, 'SIGKILL')
      const orphans = (await queue.getActive()).map((job) => job.id as string)
      expect(orphans.length).toBeGreaterThan(0)

      const results = await Promise.all(answers)
      expect(results.filter((r) => r.status !== 200)).toEqual([])
      expect(results.every((r) => r.bytes > 1_000)).toBe(true)
      expect(pidOf('ai-worker')).not.toBe(worker)
      for (const id of orphans) {
        const job = await Job.fromId(queue, id)
        expect(job?.finishedOn, `job ${id} finished`).toBeGreaterThan(0)
        expect(job?.stalledCounter, `job ${id} was taken back`).toBeGreaterThan(0)
      }
      console.info(`faults: speech worker killed with ${orphans.length} job(s) active; all done`)
    } finally {
      await queue.close()
      connection.disconnect()
    }
  })

  it('PostgreSQL restarts: services recover within 5 s and no committed write is lost', async () => {
    const word = `faultword${Date.now()}`
    const gestalts = (await (await fetch(`${base}/api/gestalts?language=en`)).json()) as {
      id: number
    }[]
    const created = await fetch(`${base}/api/descriptors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ word, language: 'en', gestaltId: gestalts[0]?.id }),
    })
    expect(created.status).toBe(201)

    pg.stop()
    await sleep(1_000)
    pg.start()
    const upAt = Date.now()
    const recovered = await until(
      ok('/api/user/descriptors', true),
      RECOVERY_MS,
      'descriptors reads again',
    )
    await until(ok('/api/auth/me', true), RECOVERY_MS - recovered, 'auth reads again')
    const mine = (await (
      await fetch(`${base}/api/user/descriptors`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { word: string }[]
    expect(mine.map((d) => d.word)).toContain(word)
    console.info(`faults: PostgreSQL back → services answer after ${Date.now() - upAt} ms`)
  })

  it('PostgreSQL killed with SIGKILL: services recover and no committed write is lost', async () => {
    // Several writes, the last answered just before the kill: each 201 is a promise kept.
    const words = await saveWords(base, token, 'crashword')
    await pg.crash()
    await sleep(500)
    pg.start()
    const upAt = Date.now()
    await until(ok('/api/user/descriptors', true), 3 * RECOVERY_MS, 'descriptors reads again')
    await until(ok('/api/auth/me', true), RECOVERY_MS, 'auth reads again')
    expect(await lostWords(base, token, words)).toEqual([])
    console.info(`faults: PostgreSQL SIGKILL → services answer after ${Date.now() - upAt} ms`)
  })

  it('Redis restarts (AOF): the app keeps answering and its Redis users reconnect', async () => {
    const killedAt = Date.now()
    await redis.kill()
    await sleep(1_000)
    // Rate limits fail open while Redis is away: the trainer keeps working.
    expect(await ok('/api/gestalts?language=en')()).toBe(true)
    await redis.start()
    const upAt = Date.now()
    await until(
      async () => {
        const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })
        return res.status === 200
      },
      RECOVERY_MS,
      'every service healthy again',
    )
    // Every route of the mix, signed-in reads included, answered throughout.
    const during = load.since(killedAt)
    expect(new Set(during.map((s) => s.route)).size).toBe(5)
    expect(during.filter((s) => s.status >= 500 || s.status <= 0)).toEqual([])
    console.info(`faults: Redis back → healthy after ${Date.now() - upAt} ms`)
  })

  it('a bounded attacker: the ReDoS header and stalled anonymous uploads leave health and cheap reads fast', async () => {
    const gateway = pidOf('gateway')
    const rssBefore = rssMiB(gateway)
    const port = Number(new URL(base).port)
    // Twenty anonymous uploads declaring 24 MiB, each sending a little and then stalling.
    const stalled = Array.from({ length: 20 }, () => {
      const socket = connect(port, '127.0.0.1')
      socket.on('error', () => undefined)
      socket.write(
        `POST /api/tachistoscope/images/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${24 * 1024 * 1024}\r\n\r\n`,
      )
      socket.write(Buffer.alloc(64 * 1024, 7))
      return socket
    })
    // The header that froze a service for 37 s: dots, a space and x.
    const hostile = '.'.repeat(6_000) + ' x'
    const attack = (async () => {
      const statuses: number[] = []
      for (let i = 0; i < 60; i++) {
        const res = await fetch(`${base}/api/gestalts?language=en`, {
          headers: { authorization: hostile },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
        await res.arrayBuffer()
        statuses.push(res.status)
      }
      return statuses
    })()
    const times: number[] = []
    for (let i = 0; i < 60; i++) {
      for (const path of ['/api/health', '/api/settings']) {
        const started = performance.now()
        const res = await fetch(base + path, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
        await res.arrayBuffer()
        times.push(performance.now() - started)
        expect(res.status, path).toBe(200)
      }
    }
    const statuses = await attack
    for (const socket of stalled) socket.destroy()
    const rssAfter = rssMiB(gateway)
    const slowest = Math.max(...times)
    console.info(
      `faults: under attack ${times.length} health and settings reads, slowest ${Math.round(slowest)} ms; gateway RSS ${rssBefore} → ${rssAfter} MiB`,
    )
    // Answered, not frozen: the hostile header is no token (200 for a public route).
    expect(new Set(statuses)).toEqual(new Set([200]))
    // Generous bounds (a shared 2-core machine): the freeze this guards against took 37 s.
    expect(slowest).toBeLessThan(1_000)
    expect(rssAfter - rssBefore).toBeLessThan(100)
  })

  it("a bounded attacker: a rebound Host and a /64 of addresses, and out-of-order review batches, each keep other users' p99 within 2× of idle; the batches are refused or bounded", async () => {
    // Other users: two accounts and the public, each call a cheap one the trainer makes.
    const users = [
      await signInByOutbox(base, '+15550004501'),
      await signInByOutbox(base, '+15550004502'),
    ]
    const attacker = await signInByOutbox(base, '+15550004599')
    const cards = await Promise.all([...users, attacker].map((user) => reviewWords(base, user)))
    const call = (path: string, user?: string, body?: object) =>
      fetch(base + path, {
        method: body ? 'POST' : 'GET',
        headers: {
          ...(user ? { authorization: `Bearer ${user}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    const perWindow = (OTHERS_PER_SECOND * WINDOW_MS) / 1000
    const mix: ((i: number) => [string, Promise<Response>])[] = [
      () => ['settings', call('/api/settings')],
      () => ['options', call('/api/auth/options')],
      (i) => ['mine', call('/api/user/descriptors', users[i % 2])],
      (i) => ['bulk', call('/api/descriptors/bulk?language=de', users[i % 2])],
      (i) => {
        // One answer, given now, to the user's next card: the trainer's own review batch.
        const u = i % 2
        const mine = cards[u] ?? []
        const word = mine[(i >> 1) % mine.length] ?? 0
        const answer = { id: randomUUID(), descriptorId: word, rating: 'good' }
        const answers = [{ ...answer, answeredAt: new Date().toISOString(), durationMs: 2_000 }]
        return ['review', call('/api/reviews', users[u], { answers })]
      },
    ]
    /** The mix, paced (open loop): each request sent at its time, whatever came before. */
    const measure = async (count: number) => {
      const samples: Sample[] = []
      const pending: Promise<void>[] = []
      const start = performance.now()
      for (let i = 0; i < count; i++) {
        const wait = start + (i * 1000) / OTHERS_PER_SECOND - performance.now()
        if (wait > 0) await sleep(wait)
        const [at, sent] = [Date.now(), performance.now()]
        const [route, answer] = (mix[i % mix.length] as (i: number) => [string, Promise<Response>])(
          Math.floor(i / mix.length),
        )
        pending.push(
          answer
            .then(async (res) => {
              await res.arrayBuffer()
              return res.status
            })
            .catch((err: Error) => (err.name === 'TimeoutError' ? -1 : 0))
            .then((status) => {
              samples.push({ at, route, status, ms: performance.now() - sent })
            }),
        )
      }
      await Promise.all(pending)
      return samples
    }
    // Connections opened and code warm first, not counted.
    await measure(OTHERS_PER_SECOND * 2)

    const network = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
    /** Idle and attack windows in turns, with an attacker doing `part`. */
    const attack = async (part: AttackerOptions['part'], rounds: number) => {
      const options: AttackerOptions = {
        base,
        token: attacker,
        words: cards[2]?.slice(0, 11) ?? [],
        network,
        timeoutMs: REQUEST_TIMEOUT_MS,
        part,
      }
      const child = spawn(process.execPath, [join(root, 'test/faults-attacker.ts')], {
        env: { ...process.env, CRV_ATTACKER: JSON.stringify(options) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      if (child.pid) setPriority(child.pid, 19)
      const exited = new Promise<never>((_, reject) =>
        child.once('exit', (code) => reject(new Error(`the attacker exited (${code})`))),
      )
      const ask = (message: AttackerMessage) => {
        const reply = new Promise<AttackerReply>((resolve) => child.once('message', resolve))
        child.send(message)
        return Promise.race([reply, exited])
      }
      // Idle and attack in turns, each idle window right before its attack window: others'
      // tests on a shared machine change its load within seconds, and alternating lets both
      // figures see the same background. The attacker's requests are all answered before an
      // idle window.
      const idle: Sample[] = []
      const underAttack: Sample[] = []
      try {
        for (let round = 0; round < rounds; round++) {
          idle.push(...(await measure(perWindow)))
          await ask('resume')
          underAttack.push(...(await measure(perWindow)))
          await ask('pause')
        }
        const { records } = (await ask('stop')) as { records: AttackRecord[] }
        return { idle, underAttack, records }
      } finally {
        child.kill()
      }
    }
    const quantile = (samples: Sample[], q: number) => {
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b)
      return sorted[Math.ceil(sorted.length * q) - 1] ?? Infinity
    }
    const report = (
      name: string,
      { idle, underAttack, records }: Awaited<ReturnType<typeof attack>>,
    ) => {
      const [idleP99, attackP99] = [quantile(idle, 0.99), quantile(underAttack, 0.99)]
      const of = (kind: AttackKind) => records.filter((r) => r.kind === kind)
      const perCall = [...new Set(idle.map((s) => s.route))].map((route) => {
        const p50 = (samples: Sample[]) =>
          quantile(
            samples.filter((s) => s.route === route),
            0.5,
          ).toFixed(0)
        return `${route} ${p50(idle)} → ${p50(underAttack)}`
      })
      const kinds = [...new Set(records.map((r) => r.kind))].map(
        (kind) =>
          `${kind} ${of(kind).length} (slowest ${Math.round(Math.max(...of(kind).map((r) => r.ms)))} ms)`,
      )
      console.info(
        `faults: ${name}: other users' p99 idle ${idleP99.toFixed(1)} ms, under attack ${attackP99.toFixed(1)} ms (${idle.length} requests each; p50 idle → attack: ${perCall.join(', ')}; load average ${loadavg()[0]?.toFixed(1)}); attacker, ${records.length} requests: ${kinds.join(', ')}`,
      )
      return { idleP99, attackP99, of }
    }

    const hosts = await attack('hosts and addresses', ROUNDS)
    // The review batches in windows of their own: a request steps through at most 500 answers
    // and holds the descriptors service's thread for at most about 10 ms at a time (at 20,000,
    // about 120 ms, others' p99 went from 39 to 168 ms).
    const batches = await attack('review batches', ROUNDS)
    const fromHosts = report('rebound Host and a /64', hosts)
    const fromBatches = report('review batches', batches)
    const idle = [...hosts.idle, ...batches.idle]
    const underAttack = [...hosts.underAttack, ...batches.underAttack]
    const records = [...hosts.records, ...batches.records]
    const of = (kind: AttackKind) => [...fromHosts.of(kind), ...fromBatches.of(kind)]
    // Within 2× of idle; when idle's p99 is a few milliseconds, within 20 ms of it: on a shared
    // 2-core machine the scheduler alone moves a p99 by that much, and a bound that the same code
    // passes and fails by chance would be a defect of its own.
    const bound = (idleP99: number) => Math.max(2 * idleP99, idleP99 + P99_FLOOR_MS)

    // Other users were answered throughout.
    expect(idle.filter((s) => s.status !== 200)).toEqual([])
    expect(underAttack.filter((s) => s.status !== 200)).toEqual([])
    // The attacker got refusals, each answered: none failed with 5xx, none hung.
    expect(records.filter((r) => r.status >= 500 || r.status <= 0)).toEqual([])
    const statuses = (kind: AttackKind) => [...new Set(of(kind).map((r) => r.status))]
    // (a) A host the configuration does not name is answered 421, however it is named.
    for (const kind of [
      'rebound host',
      'rebound host, POST with its Origin',
      'rebound X-Forwarded-Host',
    ] as const)
      expect(statuses(kind), kind).toEqual([421])
    // (b) Sign-in codes: the /64 is one client, and one client gets 20 an hour.
    const signIns = of('sign-in code from a /64')
    expect(signIns.length).toBeGreaterThan(SENDS_PER_CLIENT)
    expect(signIns.filter((r) => r.status === 202)).toHaveLength(SENDS_PER_CLIENT)
    expect(signIns.filter((r) => r.status !== 202).map((r) => r.code)).toEqual(
      Array(signIns.length - SENDS_PER_CLIENT).fill('too_many_attempts'),
    )
    // (c) Review batches: taken only in part (50 answers a word), nothing counted twice, and a
    // batch with an answer outside the window refused whole.
    for (const kind of ['batch out of order', 'batch replayed', 'batch of one word'] as const) {
      expect(of(kind).length, kind).toBeGreaterThan(0)
      expect(statuses(kind), kind).toEqual([200])
      expect(Math.max(...of(kind).map((r) => r.perWord ?? 0)), kind).toBeLessThanOrEqual(50)
    }
    expect(of('batch of one word').every((r) => (r.results ?? 0) <= 50)).toBe(true)
    // No batch records an answer twice; one sent again may record what its first sending left
    // out (beyond the request's 500 steps: that is the client sending it again).
    expect(records.filter((r) => (r.appliedTwice ?? 0) > 0)).toEqual([])
    const outside = of('batch dated outside the window')
    expect(new Set(outside.map((r) => `${r.status} ${r.code}`))).toEqual(
      new Set(['400 answered_at_out_of_range']),
    )
    expect(fromHosts.attackP99, 'rebound Host and a /64').toBeLessThanOrEqual(
      bound(fromHosts.idleP99),
    )
    expect(fromBatches.attackP99, 'review batches').toBeLessThanOrEqual(bound(fromBatches.idleP99))
  })

  it('no request hung past its timeout through all of it', async () => {
    await load.stop()
    expect(load.samples.length).toBeGreaterThan(100)
    expect(load.samples.filter((s) => s.status === -1)).toEqual([])
    const slowest = Math.max(...load.samples.map((s) => s.ms))
    expect(slowest).toBeLessThan(REQUEST_TIMEOUT_MS)
    console.info(`faults: ${load.samples.length} requests, slowest ${slowest} ms`)
  })
})

/** Five custom words, one after another; each must be answered 201 (a promise to keep it). */
async function saveWords(base: string, token: string, prefix: string): Promise<string[]> {
  const gestalts = (await (await fetch(`${base}/api/gestalts?language=en`)).json()) as {
    id: number
  }[]
  const words: string[] = []
  for (let i = 0; i < 5; i++) {
    const word = `${prefix}${Date.now()}x${i}`
    const created = await fetch(`${base}/api/descriptors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ word, language: 'en', gestaltId: gestalts[0]?.id }),
    })
    expect(created.status).toBe(201)
    words.push(word)
  }
  return words
}

/** Which of `words` the caller's own list no longer has. */
async function lostWords(base: string, token: string, words: string[]): Promise<string[]> {
  const mine = (await (
    await fetch(`${base}/api/user/descriptors`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { word: string }[]
  const kept = new Set(mine.map((d) => d.word))
  return words.filter((w) => !kept.has(w))
}

/** The first cards of the caller's review queue (new words of every perception), as ids. */
async function reviewWords(base: string, token: string): Promise<number[]> {
  const perceptions = (await (await fetch(`${base}/api/perceptions?language=en`)).json()) as {
    id: number
  }[]
  const res = await fetch(`${base}/api/reviews/queue`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      language: 'en',
      stages: ['Stage 1-2', 'Stage 2-3', 'Stage 4-6'],
      gestaltIds: [],
      perceptionIds: perceptions.map((p) => p.id),
      newPerDay: 500,
      limit: 200,
    }),
  })
  const body = (await res.json()) as { cards: { descriptor: { id: number } }[] }
  return body.cards.map((c) => c.descriptor.id)
}

const canMount = process.getuid?.() === 0 && hasCommand('mount')

describe.skipIf(!canMount)('a full object store', () => {
  // A 320 KiB tmpfs as the media service's data folder: its disk fills after a few pictures.
  const dir = mkdtempSync(join(tmpdir(), 'crv-faults-quota-'))
  let app: Awaited<ReturnType<typeof buildTestService>>['app']
  let admin = ''
  beforeAll(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=320k', 'tmpfs', dir])
    const built = await buildTestService(mediaApp, loadMediaConfig, {
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: dir,
      // The disk is the test's to fill: no starter pictures on it.
      TACHISTOSCOPE_STARTER_DIR: 'none',
    })
    app = built.app
    admin = await built.keys.tokenFor('admin')
  })
  afterAll(async () => {
    await app?.close()
    execFileSync('umount', [dir])
    rmSync(dir, { recursive: true, force: true })
  })

  // Random noise does not compress, not even when the service re-encodes it (every stored image
  // is): each picture costs its full ~48 KiB.
  const noisePng = (_seed: number) =>
    sharp(randomBytes(128 * 128 * 3), { raw: { width: 128, height: 128, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer()
  const upload = async (n: number) =>
    app.inject({
      method: 'POST',
      url: '/api/tachistoscope/images/upload',
      headers: { authorization: `Bearer ${admin}` },
      payload: {
        filename: `noise-${n}.png`,
        category: 'random',
        imageData: `data:image/png;base64,${(await noisePng(n)).toString('base64')}`,
        mimeType: 'image/png',
      },
    })
  const files = (): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => !f.endsWith('/'))

  it('refuses the upload that does not fit clearly, keeps nothing half-written, and recovers', async () => {
    const accepted: string[] = []
    let refused: Awaited<ReturnType<typeof upload>> | undefined
    for (let n = 0; n < 20 && !refused; n++) {
      const res = await upload(n)
      if (res.statusCode === 201) accepted.push(res.json().id)
      else refused = res
    }
    expect(accepted.length).toBeGreaterThan(0)
    expect(refused?.statusCode).toBe(507)
    expect(refused?.json().error).toMatchObject({ code: 'storage_full' })
    // No temporary or partial object is left behind, and every stored row has its whole file.
    expect(files().filter((f) => f.endsWith('.tmp') || f.endsWith('.tmp.meta'))).toEqual([])
    const rows = await app.db.execute(sql`SELECT id FROM media.tachistoscope_images`)
    expect((rows.rows as { id: string }[]).map((r) => r.id).sort()).toEqual([...accepted].sort())
    for (const id of accepted) {
      const file = await app.inject(`/api/tachistoscope/files/${id}`)
      expect(file.statusCode).toBe(200)
      expect(file.rawPayload.length).toBeGreaterThan(40_000)
    }
    // Room made by deleting a picture is usable again.
    const gone = await app.inject({
      method: 'DELETE',
      url: `/api/tachistoscope/images/${accepted[0]}`,
      headers: { authorization: `Bearer ${admin}` },
    })
    expect(gone.statusCode).toBeLessThan(300)
    expect((await upload(99)).statusCode).toBe(201)
  })
})

// `npm start` on a fresh machine: no DATABASE_URL, so one embedded PostgreSQL (PGlite) process
// serves every service. A crash of that process must lose nothing a service confirmed.
describe('the embedded database killed with SIGKILL', { timeout: 240_000 }, () => {
  let app: RunningApp | undefined
  let base = ''
  let token = ''

  beforeAll(async () => {
    app = await startApp({ NODE_ENV: 'development', RATE_LIMIT_MAX: '1000000', NO_COLOR: '1' })
    base = app.base
    token = await app.signIn('+15550004343')
  }, 180_000)

  afterAll(async () => {
    await app?.close()
  })

  it('comes back by itself, and every word answered 201 before the kill is there', async () => {
    const databasePid = () => app?.pidOf('postgres') ?? NaN
    const first = databasePid()
    expect(first).toBeGreaterThan(0)
    const words = await saveWords(base, token, 'embeddedcrash')
    // The last 201 has just been answered: kill the database at once, no clean shutdown.
    process.kill(first, 'SIGKILL')
    const killedAt = Date.now()
    const read = async () => {
      const res = await fetch(`${base}/api/user/descriptors`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(2_000),
      })
      return res.status === 200
    }
    // The launcher restarts it (after 1 s); the services reconnect by themselves.
    await until(read, 30_000, 'descriptors reads again after the embedded database crashed')
    expect(databasePid()).not.toBe(first)
    expect(await lostWords(base, token, words)).toEqual([])
    console.info(
      `faults: embedded database SIGKILL → reads again after ${Date.now() - killedAt} ms`,
    )
  })
})
