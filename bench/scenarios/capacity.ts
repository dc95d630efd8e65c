// The capacity model (issue [27]): what one request of each route of the evening mix costs each
// process, measured, and what 10k, 100k and 1M daily active users then need: replicas per service
// at the pods' CPU requests, PostgreSQL connections, write IOPS and storage, Redis memory, object
// storage and egress. Every cost comes from this run; the assumptions about users are constants
// below, printed with the formulas. Writes docs/capacity.md and returns the same text.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { format, resolveConfig } from 'prettier'
import { request } from 'undici'
import { createRedis } from '@crv/kit'
import { jobOptions } from '../../services/ai/src/speech/queue.ts'
import { eveningRoutes, LANGUAGES, SPOKEN_WORDS } from '../../deploy/k6/evening-mix.ts'
import type { EveningRoute, Who } from '../../deploy/k6/evening-mix.ts'
import { embeddedDatabaseUrl } from '../../scripts/lib/embedded-db.ts'
import { render } from '../../scripts/lib/kustomize.ts'
import type { Resource } from '../../scripts/lib/kustomize.ts'
import { root, stop } from '../lib.ts'
import type { Section } from '../lib.ts'
import { startApp } from './app.ts'
import type { RunningApp } from './app.ts'
import { freshTokens, LIMITS, routeRequest, setUp } from './mixed.ts'
import { drainSpeechQueue, speechRedis } from './speech.ts'

// --- Assumptions (what no measurement here can tell; change them and rerun) -------------------

/** The scales the model is worked out for. */
const SCALES = [10_000, 100_000, 1_000_000]
/** Training sessions a daily active user opens per day. */
const SESSIONS_PER_DAY = 1.5
/** A session's length; the trainer draws a word every DRAW_EVERY_SECONDS within it. */
const SESSION_MINUTES = 15
const DRAW_EVERY_SECONDS = 5
/** Practice sessions (start, autosaves, lock, judge) per daily active user per day: the evening mix has none. */
const PRACTICE_PER_DAY = 1
const AUTOSAVES_PER_PRACTICE = 10
/** The busiest hour's request rate over the day's mean. */
const PEAK_TO_AVERAGE = 3
/** Speech requests for a word not yet voiced (the mix asks for cached words only). */
const SPEECH_MISS_SHARE = 0.05
/** The model must fit the base's HPA maximum at the first scale and the production overlay's at the second. */
const FITS = { base: 10_000, production: 100_000 }

// --- Measurement settings ----------------------------------------------------------------------

/** Each route alone at this steady rate… */
const RATE = 40
/** …for this long, after a second of warm-up at the same rate. */
const SECONDS = 4
const IDLE_SECONDS = 5
const PRACTICE_SESSIONS = 12
const WORKER_JOBS = 100
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ). */
const USER_HZ = 100
/** The self-check's planted cost: CPU time a stand-in burns per request, in µs. */
const PLANTED_US = 2_000
const SCHEMAS = ['auth', 'descriptors', 'media', 'practice']
const PROCESSES = [
  'gateway',
  'auth',
  'descriptors',
  'media',
  'ai',
  'astro',
  'practice',
  'postgres',
  'ai-worker',
] as const
type Proc = (typeof PROCESSES)[number] | 'redis'

/** CPU time a process has used so far, in µs (utime + stime of /proc/<pid>/stat). */
async function cpuMicros(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  // Fields 14 and 15; the command name (field 2) may hold spaces.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / USER_HZ
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
}

async function cpuOf(pids: Map<Proc, number>): Promise<Map<Proc, number>> {
  const out = new Map<Proc, number>()
  for (const [name, pid] of pids) out.set(name, await cpuMicros(pid))
  return out
}

/** Bytes of the files under a directory (the embedded object store). */
async function treeBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += await treeBytes(path)
    else if (entry.isFile()) total += (await stat(path)).size
  }
  return total
}

/** What the database, the object store and Redis hold at a moment. */
interface Stores {
  tableBytes: number
  tupleWrites: number
  objectBytes: number
  redisBytes: number
}

interface Probe {
  db: pg.Client
  redis: ReturnType<typeof createRedis>
  objects: string
}

async function stores(probe: Probe): Promise<Stores> {
  // PostgreSQL publishes a backend's table counters at most once a second, when it is idle.
  await new Promise((r) => setTimeout(r, 1_200))
  const { rows } = await probe.db.query<{ bytes: string; writes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(relid)), 0)::bigint AS bytes,
            coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS writes
     FROM pg_stat_user_tables WHERE schemaname = ANY($1)`,
    [SCHEMAS],
  )
  const memory = await probe.redis.info('memory')
  return {
    tableBytes: Number(rows[0]?.bytes ?? 0),
    tupleWrites: Number(rows[0]?.writes ?? 0),
    objectBytes: await treeBytes(probe.objects),
    redisBytes: Number(/used_memory:(\d+)/.exec(memory)?.[1] ?? 0),
  }
}

/** A route's cost per request: CPU µs by process, bytes answered and stored. */
interface Cost {
  name: string
  requests: number
  failed: number
  cpu: Map<Proc, number>
  responseBytes: number
  tableBytes: number
  tupleWrites: number
  objectBytes: number
  redisBytes: number
}

/** One request as the driver sends it. */
interface Outgoing {
  url: string
  method: 'GET' | 'POST' | 'PUT'
  headers: Record<string, string>
  body?: string
}

/**
 * `rate` requests/s for `seconds`, each due at its slot and sent whatever the earlier ones are
 * doing (open loop), the answers' bytes counted as they come (compressed, as a phone gets them).
 */
async function drive(
  rate: number,
  seconds: number,
  send: (i: number) => Outgoing,
): Promise<{ answered: number; failed: number; bytes: number }> {
  const count = Math.round(rate * seconds)
  const started = performance.now()
  const result = { answered: 0, failed: 0, bytes: 0 }
  const inFlight: Promise<void>[] = []
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / rate - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    const { url, method, headers, body } = send(i)
    inFlight.push(
      (async () => {
        try {
          const res = await request(url, { method, headers, body, headersTimeout: 30_000 })
          for await (const chunk of res.body) result.bytes += (chunk as Buffer).length
          result.answered++
          if (res.statusCode > 299) result.failed++
        } catch {
          result.failed++
        }
      })(),
    )
  }
  await Promise.all(inFlight)
  return result
}

/**
 * CPU µs per request of each process while `run` sends `requests` requests, less what the process
 * uses idle over the same wall time (`idle`, µs per second).
 */
async function measure(
  pids: Map<Proc, number>,
  idle: Map<Proc, number>,
  run: () => Promise<{ requests: number; failed: number; bytes: number }>,
): Promise<{ cpu: Map<Proc, number>; requests: number; failed: number; bytes: number }> {
  const before = await cpuOf(pids)
  const started = performance.now()
  const done = await run()
  const wall = (performance.now() - started) / 1000
  const after = await cpuOf(pids)
  const cpu = new Map<Proc, number>()
  for (const [name, used] of after) {
    const net = used - (before.get(name) ?? used) - (idle.get(name) ?? 0) * wall
    cpu.set(name, Math.max(0, net) / Math.max(1, done.requests))
  }
  return { cpu, ...done }
}

async function idleRates(pids: Map<Proc, number>): Promise<Map<Proc, number>> {
  const before = await cpuOf(pids)
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000))
  const after = await cpuOf(pids)
  return new Map([...after].map(([n, v]) => [n, (v - (before.get(n) ?? v)) / IDLE_SECONDS]))
}

/**
 * The self-check: a stand-in server in its own process that burns `burnUs` of CPU time per
 * request (counted by the process's own clock), measured exactly as a route is.
 */
async function standInCost(burnUs: number): Promise<number> {
  const code = `
    const http = require('node:http')
    const server = http.createServer((req, res) => {
      const until = process.cpuUsage().user + process.cpuUsage().system + ${burnUs}
      while (process.cpuUsage().user + process.cpuUsage().system < until) {}
      res.end('{}')
    })
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port))`
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise<number>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        const m = /port (\d+)/.exec(d.toString())
        if (m) resolve(Number(m[1]))
      }),
    )
    const pids = new Map<Proc, number>([['gateway', child.pid ?? 0]])
    const idle = await idleRates(pids)
    const url = `http://127.0.0.1:${port}/`
    await drive(RATE, 1, () => ({ url, method: 'GET', headers: {} }))
    const { cpu } = await measure(pids, idle, async () => {
      const r = await drive(RATE, SECONDS, () => ({ url, method: 'GET', headers: {} }))
      return { requests: r.answered, failed: r.failed, bytes: r.bytes }
    })
    return cpu.get('gateway') ?? Number.NaN
  } finally {
    await stop(child)
  }
}

async function routeCost(
  app: RunningApp,
  probe: Probe,
  pids: Map<Proc, number>,
  idle: Map<Proc, number>,
  route: EveningRoute,
  tokens: Record<Who, string>,
  offset: number,
): Promise<Cost> {
  const outgoing = routeRequest(app.base, route, tokens)
  await drive(RATE, 1, (i) => outgoing(offset + i))
  const before = await stores(probe)
  const run = await measure(pids, idle, async () => {
    const r = await drive(RATE, SECONDS, (i) => outgoing(offset + RATE + i))
    return { requests: r.answered, failed: r.failed, bytes: r.bytes }
  })
  const after = await stores(probe)
  const per = (k: keyof Stores) => (after[k] - before[k]) / Math.max(1, run.requests)
  return {
    name: route.name,
    requests: run.requests,
    failed: run.failed,
    cpu: run.cpu,
    responseBytes: run.bytes / Math.max(1, run.requests),
    tableBytes: per('tableBytes'),
    tupleWrites: per('tupleWrites'),
    objectBytes: per('objectBytes'),
    redisBytes: per('redisBytes'),
  }
}

/** A write-up as a viewer leaves it after ten minutes (words in every column, a drawing). */
function writeUp(i: number) {
  const stroke = (n: number) =>
    Array.from({ length: n }, (_, k) => [k / n, 0.5 + 0.3 * Math.sin(k / 7 + i), k * 8, 0.5])
  return {
    language: 'en',
    stage1: { ideograms: [{ drawing: { strokes: [stroke(150)] }, a: 'up', b: 'land' }] },
    stage2: { colours: ['grey', 'blue'], textures: ['rough'], temperatures: ['cold'] },
    aestheticImpact: 'open, windy',
    stage4: { rows: [{ S: 'cold wind', D: 'tall', I: 'a tower' }] },
    summary: `session ${i}: a tall structure near water`,
  }
}

/** Whole practice sessions of one user, one after another: the cost of one session. */
async function practiceCost(
  app: RunningApp,
  probe: Probe,
  pids: Map<Proc, number>,
  idle: Map<Proc, number>,
  token: string,
): Promise<Cost> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const call = async (path: string, method: 'POST' | 'PUT', body?: unknown) => {
    const res = await request(app.base + path, {
      method,
      headers: body === undefined ? { authorization: headers.authorization } : headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.body.text()
    if (res.statusCode > 299) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`)
    return { json: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) }
  }
  const session = async (i: number) => {
    let bytes = 0
    const started = await call('/api/practice/sessions', 'POST', {
      latitude: 52.5,
      longitude: 13.4,
    })
    const id = (started.json as { id: string }).id
    bytes += started.bytes
    for (let k = 0; k < AUTOSAVES_PER_PRACTICE; k++)
      bytes += (await call(`/api/practice/sessions/${id}`, 'PUT', { writeUp: writeUp(i) })).bytes
    const locked = await call(`/api/practice/sessions/${id}/lock`, 'POST')
    const ranking = (locked.json as { candidates: { id: string }[] }).candidates.map((c) => c.id)
    const judged = await call(`/api/practice/sessions/${id}/judge`, 'POST', { ranking })
    return bytes + locked.bytes + judged.bytes
  }
  await session(-1)
  const before = await stores(probe)
  const run = await measure(pids, idle, async () => {
    let bytes = 0
    for (let i = 0; i < PRACTICE_SESSIONS; i++) bytes += await session(i)
    return { requests: PRACTICE_SESSIONS, failed: 0, bytes }
  })
  const after = await stores(probe)
  const per = (k: keyof Stores) => (after[k] - before[k]) / PRACTICE_SESSIONS
  return {
    name: `a practice session (start, ${AUTOSAVES_PER_PRACTICE} autosaves, lock, judge)`,
    requests: run.requests,
    failed: run.failed,
    cpu: run.cpu,
    responseBytes: run.bytes / PRACTICE_SESSIONS,
    tableBytes: per('tableBytes'),
    tupleWrites: per('tupleWrites'),
    objectBytes: per('objectBytes'),
    redisBytes: per('redisBytes'),
  }
}

/** Redis keys by what holds them (the part of the name before its first `:`, or BullMQ's queue), with bytes. */
async function redisKeys(redis: ReturnType<typeof createRedis>) {
  const groups = new Map<string, { keys: number; bytes: number }>()
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 500)
    cursor = next
    for (const key of keys) {
      const group = key.startsWith('bull:')
        ? /^bull:[^:]+:\d+$/.test(key)
          ? 'a speech job (bull:<queue>:<id>)'
          : 'the queue’s lists and sets (bull:<queue>:…)'
        : `${key.split(':')[0] ?? key}:…`
      const bytes = Number((await redis.call('MEMORY', 'USAGE', key)) ?? 0)
      const g = groups.get(group) ?? { keys: 0, bytes: 0 }
      groups.set(group, { keys: g.keys + 1, bytes: g.bytes + bytes })
    }
  } while (cursor !== '0')
  return groups
}

// --- The deployment as rendered ---------------------------------------------------------------

interface Scaling {
  cpuRequest: number
  memoryMiB: number
  min: number
  max: number
  /** The HPA's CPU target as a share of the request. */
  target: number
}

const cores = (cpu: string) => (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) / 1000 : Number(cpu))

/** The connection pool's Deployment: not a service of the model's routes (see `poolerOf`). */
const POOLER = 'pgbouncer'

/** Requests and autoscaler bounds of each Deployment of a rendered tree but the pool's. */
function scalingOf(resources: Resource[]): Map<string, Scaling> {
  const out = new Map<string, Scaling>()
  for (const r of resources) {
    if (r.kind !== 'Deployment' || r.metadata.name === POOLER) continue
    const spec = r.spec as {
      template: { spec: { containers: { resources: { requests: Record<string, string> } }[] } }
    }
    const want = spec.template.spec.containers[0]?.resources.requests ?? {}
    out.set(r.metadata.name, {
      cpuRequest: cores(want.cpu ?? '0'),
      memoryMiB: Number((want.memory ?? '0').replace(/Mi$/, '')),
      min: 1,
      max: 1,
      target: 1,
    })
  }
  for (const r of resources) {
    const s = r.spec as {
      scaleTargetRef: { name: string }
      minReplicas?: number
      maxReplicas?: number
      minReplicaCount?: number
      maxReplicaCount?: number
      metrics?: { resource?: { target?: { averageUtilization?: number } } }[]
    }
    const found = out.get(s?.scaleTargetRef?.name ?? '')
    if (!found) continue
    if (r.kind === 'HorizontalPodAutoscaler') {
      found.min = s.minReplicas ?? 1
      found.max = s.maxReplicas ?? 1
      found.target = (s.metrics?.[0]?.resource?.target?.averageUtilization ?? 100) / 100
    } else if (r.kind === 'ScaledObject') {
      found.min = s.minReplicaCount ?? 0
      found.max = s.maxReplicaCount ?? 100
    }
  }
  return out
}

/** The KEDA trigger's waiting jobs per worker. */
function kedaListLength(resources: Resource[]): number {
  const so = resources.find((r) => r.kind === 'ScaledObject')
  const trigger = (so?.spec as { triggers?: { metadata?: { listLength?: string } }[] })
    ?.triggers?.[0]
  return Number(trigger?.metadata?.listLength ?? Number.NaN)
}

interface Pooler {
  replicas: number
  /** Server connections per pod (PGBOUNCER_POOL_SIZE as the manifest sets it). */
  poolSize: number
  /** Client connections per pod (the image's PGBOUNCER_MAX_CLIENT_CONN default). */
  maxClients: number
}

/** PgBouncer as a rendered tree runs it: pods, and connections per pod on each side. */
function poolerOf(resources: Resource[]): Pooler {
  const deployment = resources.find((r) => r.kind === 'Deployment' && r.metadata.name === POOLER)
  const spec = deployment?.spec as
    | {
        replicas?: number
        template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } }
      }
    | undefined
  const env = spec?.template.spec.containers[0]?.env ?? []
  const entrypoint = readFileSync(
    fileURLToPath(new URL('../../deploy/pgbouncer/entrypoint.sh', import.meta.url)),
    'utf8',
  )
  const defaultOf = (name: string) =>
    Number(new RegExp(`\\$\\{${name}:=(\\d+)\\}`).exec(entrypoint)?.[1] ?? Number.NaN)
  return {
    replicas: spec?.replicas ?? 0,
    poolSize: Number(
      env.find((e) => e.name === 'PGBOUNCER_POOL_SIZE')?.value ?? defaultOf('PGBOUNCER_POOL_SIZE'),
    ),
    maxClients: defaultOf('PGBOUNCER_MAX_CLIENT_CONN'),
  }
}

/** Each service's database pool size: its config's DATABASE_POOL_MAX default (the manifests set none). */
async function poolSizes(): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const service of await readdir(join(root, 'services'))) {
    const config = await readFile(
      join(root, 'services', service, 'src', 'config.ts'),
      'utf8',
    ).catch(() => '')
    const m = /DATABASE_POOL_MAX:.*\.default\((\d+)\)/.exec(config)
    if (m) out.set(service, Number(m[1]))
  }
  return out
}

// --- The scenario -----------------------------------------------------------------------------

/**
 * BENCH_CAPACITY_MEASURED names a JSON file: the figures are saved there after measuring, and read
 * from there instead of measuring when it exists (to work on the model without the 5-minute run).
 */
const SAVED = process.env.BENCH_CAPACITY_MEASURED

export async function capacity(): Promise<Section> {
  const mix = eveningRoutes(
    { gestaltIds: [], perceptionIds: [], imageIds: [], asset: '' },
    `capacity ${Date.now() % 1e6}`,
  )
  const measured = SAVED && existsSync(SAVED) ? revive(readFileSync(SAVED, 'utf8'), mix) : undefined
  const m = measured ?? (await measureAll())
  if (SAVED && !measured) await writeFile(SAVED, saved(m))
  const markdown = model(m)
  // Formatted as the repository's Prettier check wants it (`npm run lint` reads docs/).
  const file = join(root, 'docs', 'capacity.md')
  const text = [
    '# Capacity model',
    '',
    `_Generated by \`npm run bench -- capacity\` (bench/scenarios/capacity.ts) on ${m.when}: ${m.machine}. Do not edit: change the assumptions in the scenario and run it again._`,
    '',
    markdown.replace(/^## Capacity model[^\n]*\n/, ''),
  ].join('\n')
  const options = (await resolveConfig(file)) ?? {}
  await writeFile(file, await format(text, { ...options, filepath: file }))
  return { markdown }
}

const saved = (m: Measured) =>
  JSON.stringify({
    ...m,
    costs: m.costs.map((c) => ({ id: c.route?.id, cost: { ...c.cost, cpu: [...c.cost.cpu] } })),
    rss: [...m.rss],
    keys: [...m.keys],
    pools: [...m.pools],
    mix: undefined,
  })

function revive(text: string, mix: EveningRoute[]): Measured {
  type Saved = Omit<Measured, 'costs' | 'rss' | 'keys' | 'pools' | 'mix'> & {
    costs: { id?: string; cost: Omit<Cost, 'cpu'> & { cpu: [Proc, number][] } }[]
    rss: [Proc, number][]
    keys: [string, { keys: number; bytes: number }][]
    pools: [string, number][]
  }
  const s = JSON.parse(text) as Saved
  return {
    ...s,
    costs: s.costs.map((c) => ({
      route: mix.find((r) => r.id === c.id),
      cost: { ...c.cost, cpu: new Map(c.cost.cpu) },
    })),
    rss: new Map(s.rss),
    keys: new Map(s.keys),
    pools: new Map(s.pools),
    mix,
  }
}

async function measureAll(): Promise<Measured> {
  const plantedCheck = { none: await standInCost(0), burning: await standInCost(PLANTED_US) }
  const redis = await speechRedis()
  if (!redis) throw new Error('the capacity model needs Redis (REDIS_URL or redis-server)')
  try {
    return await measureApp(redis, plantedCheck)
  } finally {
    redis.stop()
  }
}

async function measureApp(
  redis: { url: string; pid?: number },
  plantedCheck: { none: number; burning: number },
): Promise<Measured> {
  const app = await startApp({ ...LIMITS, REDIS_URL: redis.url })
  const probeRedis = createRedis(redis.url, { name: 'bench-capacity' })
  const db = new pg.Client({ connectionString: embeddedDatabaseUrl(app.dataDir) ?? 'unpublished' })
  const probe: Probe = { db, redis: probeRedis, objects: join(app.dataDir, 'objects') }
  try {
    await db.connect()
    const pids = new Map<Proc, number>(PROCESSES.map((n) => [n, app.pidOf(n)]))
    if (redis.pid) pids.set('redis', redis.pid)
    for (const [name, pid] of pids) if (!pid) throw new Error(`no pid for ${name}`)

    // The fixture voices the mix's speech words through the queue: bytes per voiced word.
    const beforeVoicing = await treeBytes(probe.objects)
    const fixture = await setUp(app)
    const clipBytes = (await treeBytes(probe.objects)) - beforeVoicing
    const mix = eveningRoutes(fixture, `capacity ${Date.now() % 1e6}`)
    const tokens = await freshTokens(app)
    const idle = await idleRates(pids)

    const costs: { route: EveningRoute | undefined; cost: Cost }[] = []
    for (const [i, route] of mix.entries()) {
      console.log(`bench: capacity, ${route.id}`)
      costs.push({ route, cost: await routeCost(app, probe, pids, idle, route, tokens, i * 1000) })
    }
    console.log('bench: capacity, practice sessions')
    costs.push({
      route: undefined,
      cost: await practiceCost(app, probe, pids, idle, tokens.user),
    })
    const keys = await redisKeys(probeRedis)
    const rss = new Map<Proc, number>()
    for (const [name, pid] of pids) rss.set(name, await rssMiB(pid))

    console.log('bench: capacity, the speech worker')
    const drained = await drainSpeechQueue({ redisUrl: redis.url, workers: 1, jobs: WORKER_JOBS })
    const worker = {
      wallWordsPerSecond: drained.completed / drained.seconds,
      wordsPerCpuSecond: drained.completed / drained.cpuSeconds,
    }

    // The fixture voices each of the mix's speech words in each of its languages once.
    const voicedWords = LANGUAGES.length * SPOKEN_WORDS.length
    return {
      when: new Date().toISOString(),
      machine: `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      costs,
      rss,
      keys,
      worker,
      clipBytes: clipBytes / voicedWords,
      plantedCheck,
      mix,
      pools: await poolSizes(),
    }
  } finally {
    await db.end().catch(() => {})
    probeRedis.disconnect()
    await app.close()
  }
}

// --- The model ----------------------------------------------------------------------------------

interface Measured {
  when: string
  machine: string
  costs: { route: EveningRoute | undefined; cost: Cost }[]
  rss: Map<Proc, number>
  keys: Map<string, { keys: number; bytes: number }>
  /** The speech worker: words/s by the clock on this machine, and words per second of its CPU time. */
  worker: { wallWordsPerSecond: number; wordsPerCpuSecond: number }
  clipBytes: number
  plantedCheck: { none: number; burning: number }
  mix: EveningRoute[]
  /** DATABASE_POOL_MAX of each service with a database. */
  pools: Map<string, number>
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–'
const bytesText = (n: number) =>
  n >= 2 ** 40
    ? `${fmt(n / 2 ** 40, 1)} TiB`
    : n >= 2 ** 30
      ? `${fmt(n / 2 ** 30, 1)} GiB`
      : n >= 2 ** 20
        ? `${fmt(n / 2 ** 20, 1)} MiB`
        : n >= 1024
          ? `${fmt(n / 1024, 1)} KiB`
          : `${fmt(n)} B`
const scaleText = (dau: number) => (dau >= 1e6 ? `${dau / 1e6}M` : `${dau / 1e3}k`)

function model(m: Measured): string {
  const base = scalingOf(
    render(fileURLToPath(new URL('../../deploy/kubernetes/base', import.meta.url))),
  )
  // The overlay's Secrets come from env files never committed; their examples stand in.
  const productionTree = render(
    fileURLToPath(new URL('../../deploy/kubernetes/production', import.meta.url)),
    { readEnvFile: (path) => readFileSync(`${path}.example`, 'utf8') },
  )
  const production = scalingOf(productionTree)
  const pooler = poolerOf(productionTree)
  const listLength = kedaListLength(productionTree)

  // A session's requests by route: DRAWS draws, every other route in its share of the mix
  // relative to the draws. The administrator's routes are one person's, whatever the users.
  const draws = (SESSION_MINUTES * 60) / DRAW_EVERY_SECONDS
  const drawRate = m.mix.find((r) => r.id === 'random')?.rate ?? 1
  const perUserDay = (c: { route: EveningRoute | undefined }) =>
    c.route === undefined
      ? PRACTICE_PER_DAY
      : c.route.who === 'admin'
        ? 0
        : (SESSIONS_PER_DAY * draws * c.route.rate) / drawRate
  const fixedPerSecond = (c: { route: EveningRoute | undefined }) =>
    c.route?.who === 'admin' ? c.route.rate : 0
  /** Requests (or practice sessions) per second of a route at the peak hour. */
  const peakRate = (c: { route: EveningRoute | undefined }, dau: number) =>
    (dau * perUserDay(c) * PEAK_TO_AVERAGE) / 86_400 + fixedPerSecond(c)
  const perDay = (c: { route: EveningRoute | undefined }, dau: number) =>
    dau * perUserDay(c) + fixedPerSecond(c) * 86_400
  const requestsPerSession = m.mix
    .filter((r) => r.who !== 'admin')
    .reduce((s, r) => s + (draws * r.rate) / drawRate, 0)
  const practiceRequests = AUTOSAVES_PER_PRACTICE + 3

  const services = [...base.keys()].filter((s) => s !== 'ai-worker')
  const workerCpu = base.get('ai-worker')?.cpuRequest ?? 1
  const workerRate = m.worker.wordsPerCpuSecond * Math.min(1, workerCpu)
  const coresAt = (service: Proc, dau: number) =>
    m.costs.reduce((s, c) => s + (peakRate(c, dau) * (c.cost.cpu.get(service) ?? 0)) / 1e6, 0)
  const replicasFor = (service: string, dau: number, scaling: Scaling) =>
    Math.max(1, Math.ceil(coresAt(service as Proc, dau) / (scaling.cpuRequest * scaling.target)))
  const speechWordsPerSecond = (dau: number) =>
    m.costs
      .filter((c) => c.route?.id === 'speech')
      .reduce((s, c) => s + peakRate(c, dau) * SPEECH_MISS_SHARE, 0)
  const workersFor = (dau: number) => Math.max(1, Math.ceil(speechWordsPerSecond(dau) / workerRate))
  const pools = m.pools
  const sum = (f: (c: Measured['costs'][number]) => number) => m.costs.reduce((s, c) => s + f(c), 0)

  const lines: string[] = [
    '## Capacity model: what 10k, 100k and 1M daily active users need',
    '',
    `Each route of the evening mix (\`deploy/k6/evening-mix.ts\`) alone at ${RATE} requests/s for ${SECONDS} s (after 1 s of warm-up) through the gateway of the whole app (embedded PostgreSQL, a local Redis for the rate limits and the speech queue), one route after another, and ${PRACTICE_SESSIONS} whole practice sessions of one user one after another. CPU: each process's utime + stime from /proc/<pid>/stat before and after (10 ms ticks), less what it uses idle over the same time (measured for ${IDLE_SECONDS} s before), divided by the requests answered. Storage: the tables of the ${SCHEMAS.join(', ')} schemas (pg_total_relation_size, rows written from pg_stat_user_tables), the object store's files and Redis's used_memory, before and after each route. Egress: the answers' bytes as sent (br/gzip accepted).`,
    '',
    '### Measured: CPU-µs per request by process',
    '',
    `| route | requests | failed | ${PROCESSES.join(' | ')} | redis | all |`,
    `|---|---:|---:|${[...PROCESSES, 'redis', 'all'].map(() => '---:').join('|')}|`,
    ...m.costs.map(({ cost }) => {
      const all = [...cost.cpu.values()].reduce((a, b) => a + b, 0)
      return `| ${cost.name} | ${cost.requests} | ${cost.failed} | ${[...PROCESSES, 'redis' as const].map((p) => fmt(cost.cpu.get(p) ?? Number.NaN)).join(' | ')} | ${fmt(all)} |`
    }),
    '',
    `A tick is 10,000 µs: a process's figure for a route is good to about ${fmt(10_000 / (RATE * SECONDS))} µs (the practice session's to ${fmt(10_000 / PRACTICE_SESSIONS)} µs). The embedded database is PGlite (PostgreSQL compiled to WebAssembly, one process): its CPU per request is what this database spends, an upper bound for a native PostgreSQL server rather than a measure of one.`,
    '',
    `Self-check: a stand-in server in its own process burning ${fmt(PLANTED_US)} µs of CPU per request (by its own clock), measured the same way, reads ${fmt(m.plantedCheck.burning)} µs per request, against ${fmt(m.plantedCheck.none)} µs for the same stand-in burning nothing: the planted cost reads ${fmt(m.plantedCheck.burning - m.plantedCheck.none)} µs (must be within ±30 % of ${fmt(PLANTED_US)}): ${Math.abs(m.plantedCheck.burning - m.plantedCheck.none - PLANTED_US) <= 0.3 * PLANTED_US ? 'yes' : '**no**'}.`,
    '',
    '### Measured: bytes per request',
    '',
    '| route | answer (egress) | tables | rows written | objects | Redis |',
    '|---|---:|---:|---:|---:|---:|',
    ...m.costs.map(
      ({ cost }) =>
        `| ${cost.name} | ${bytesText(cost.responseBytes)} | ${bytesText(cost.tableBytes)} | ${fmt(cost.tupleWrites, 2)} | ${bytesText(cost.objectBytes)} | ${bytesText(cost.redisBytes)} |`,
    ),
    '',
    `Tables grow by 8 KiB pages, so a route writing small rows reads 0 or a page over ${RATE * SECONDS} requests: the storage figures below come from these per-request averages, good to about ${bytesText(8192 / (RATE * SECONDS))} per request. Redis's used_memory also moves with its own buffers: the Redis figures below come from the keys themselves (next table), not from this column. A voiced word (MP3 in the object store) measured ${bytesText(m.clipBytes)} (the mix's 40 words voiced before the load).`,
    '',
    '### Measured: memory, Redis keys and the speech worker',
    '',
    `Resident memory (RSS) of each process after the run: ${[...m.rss].map(([n, v]) => `${n} ${fmt(v)} MiB`).join(', ')}. Memory per request is not measured: RSS moves with the garbage collector by megabytes while a request allocates kilobytes, and an honest figure needs heap sampling inside each service; a replica's memory is taken as its pod's request (\`deploy/kubernetes/base\`), which \`npm run bench -- mixed\` checks against the RSS peak of a 10-minute soak.`,
    '',
    '| Redis keys after the run | keys | bytes (MEMORY USAGE) | per key |',
    '|---|---:|---:|---:|',
    ...[...m.keys].map(
      ([group, g]) =>
        `| ${group} | ${g.keys} | ${bytesText(g.bytes)} | ${bytesText(g.bytes / g.keys)} |`,
    ),
    '',
    `The speech worker (one process, one job at a time, ${WORKER_JOBS} new words): ${fmt(m.worker.wallWordsPerSecond, 1)} words/s by the clock on this shared machine, **${fmt(m.worker.wordsPerCpuSecond, 1)} words per second of its CPU time** (CPU time from /proc over the words voiced; synthesis is single-threaded, so this is one worker's rate with one core to itself). The model gives a worker its pod's CPU request: ${fmt(workerRate, 1)} words/s at ${fmt(workerCpu, 2)} CPU.`,
    '',
    '### Assumptions',
    '',
    `- A daily active user (DAU) opens **${SESSIONS_PER_DAY} training sessions a day** of ${SESSION_MINUTES} minutes, drawing a word every ${DRAW_EVERY_SECONDS} s: ${fmt(draws)} draws (\`POST /api/descriptors/random\`) a session, and every other route of the mix but the administrator's in its share of the mix relative to the draws (route rate ÷ ${drawRate} × ${fmt(draws)}): **${fmt(requestsPerSession)} requests a session**.`,
    `- **${PRACTICE_PER_DAY} practice session a day** (${practiceRequests} requests: start, ${AUTOSAVES_PER_PRACTICE} autosaves, lock, judge); the evening mix has none.`,
    `- The administrator's routes run at the mix's rates whatever the number of users (one person moderating).`,
    `- Peak hour: **${PEAK_TO_AVERAGE}×** the day's mean rate.`,
    `- ${fmt(SPEECH_MISS_SHARE * 100)} % of speech requests ask for a word not yet voiced (the mix asks for voiced ones); every other speech request is served from the object store.`,
    `- The base's HPA maxima must hold ${scaleText(FITS.base)} DAU, the production overlay's ${scaleText(FITS.production)} DAU; 1M DAU is worked out but no manifest is sized for it.`,
    '',
    '### Formulas',
    '',
    '```',
    'per-user-day(route)   = SESSIONS × DRAWS × rate(route) / rate(random)      (practice: PRACTICE_PER_DAY; admin: 0)',
    'peak rate(route)      = DAU × per-user-day(route) × PEAK / 86,400  (+ rate(route) for admin routes)',
    'cores(service)        = Σ routes peak rate × CPU-µs(route, service) / 10^6',
    'replicas(service)     = ⌈cores / (CPU request × HPA target utilisation)⌉',
    'speech words/s        = peak rate(speech) × MISS_SHARE;   workers = ⌈words/s ÷ (words per CPU-second × worker CPU request)⌉',
    'pool clients          = Σ services with a database replicas × DATABASE_POOL_MAX   (to PgBouncer)',
    'PG connections        = PgBouncer pods × PGBOUNCER_POOL_SIZE                     (what PostgreSQL holds)',
    'busy PG connections   ≈ PostgreSQL cores at peak   (a transaction holds its server connection while the server works on it)',
    'write IOPS (≤)        = Σ routes peak rate × (1 commit if it writes a row + rows written)',
    'storage / DAU / year  = 365 × Σ routes per-user-day × (table bytes + object bytes) per request',
    'egress / day          = Σ routes DAU × per-user-day × answer bytes',
    'Redis                 = concurrent clients × rate-limit key bytes + retained jobs × job bytes',
    'concurrent clients    = DAU × SESSIONS × SESSION_MINUTES / 1,440 × PEAK',
    '```',
    '',
    '### Derived',
    '',
    `| | ${SCALES.map((d) => `${scaleText(d)} DAU`).join(' | ')} |`,
    `|---|${SCALES.map(() => '---:').join('|')}|`,
    `| requests/s at peak | ${SCALES.map((d) => fmt(sum((c) => peakRate(c, d) * (c.route ? 1 : practiceRequests)))).join(' | ')} |`,
  ]
  for (const service of [...services, 'postgres' as const]) {
    const scaling = base.get(service)
    lines.push(
      `| ${service}: cores at peak${scaling ? ` → replicas at ${scaling.cpuRequest} CPU × ${fmt(scaling.target * 100)} %` : ' (PGlite)'} | ${SCALES.map((d) => `${fmt(coresAt(service as Proc, d), 2)}${scaling ? ` → **${replicasFor(service, d, scaling)}**` : ''}`).join(' | ')} |`,
    )
  }
  const dbServices = services.filter((s) => pools.has(s))
  const connections = (d: number) =>
    dbServices.reduce((s, name) => {
      const scaling = base.get(name)
      return scaling
        ? s + Math.max(scaling.min, replicasFor(name, d, scaling)) * (pools.get(name) ?? 0)
        : s
    }, 0)
  const writeIops = (d: number) =>
    sum(
      (c) =>
        peakRate(c, d) *
        ((c.route ? (c.cost.tupleWrites > 0.01 ? 1 : 0) : practiceRequests) + c.cost.tupleWrites),
    )
  const storagePerDauYear =
    365 * sum((c) => perUserDay(c) * (Math.max(0, c.cost.tableBytes) + c.cost.objectBytes))
  const speechPerUserDay = m.costs
    .filter((c) => c.route?.id === 'speech')
    .reduce((s, c) => s + perUserDay(c) * SPEECH_MISS_SHARE, 0)
  const clipsPerDauYear = 365 * speechPerUserDay * m.clipBytes
  const egressPerDay = (d: number) => sum((c) => perDay(c, d) * c.cost.responseBytes)
  const rateLimitKey = [...m.keys].find(([g]) => g.startsWith('crv-gw-rl'))?.[1]
  const jobKey = [...m.keys].find(([g]) => g.startsWith('a speech job'))?.[1]
  const perRateKey = rateLimitKey ? rateLimitKey.bytes / rateLimitKey.keys : Number.NaN
  const perJob = jobKey ? jobKey.bytes / jobKey.keys : Number.NaN
  const retainedJobs = jobOptions.removeOnComplete.count + jobOptions.removeOnFail.count
  const concurrent = (d: number) =>
    (d * SESSIONS_PER_DAY * SESSION_MINUTES * PEAK_TO_AVERAGE) / 1_440
  lines.push(
    `| ai-worker: new words/s at peak → workers at ${fmt(workerRate, 1)} words/s each | ${SCALES.map((d) => `${fmt(speechWordsPerSecond(d), 1)} → **${workersFor(d)}**`).join(' | ')} |`,
    `| connections to PgBouncer (${dbServices.map((s) => `${s} ${pools.get(s)}`).join(', ')} per replica; replicas at least the HPA minimum) | ${SCALES.map((d) => fmt(connections(d))).join(' | ')} |`,
    `| PostgreSQL connections busy at peak, of PgBouncer's ${fmt(pooler.replicas * pooler.poolSize)} (${pooler.replicas} pods × ${pooler.poolSize}) | ${SCALES.map((d) => fmt(coresAt('postgres', d), 1)).join(' | ')} |`,
    `| PostgreSQL write IOPS at peak (upper bound) | ${SCALES.map((d) => fmt(writeIops(d))).join(' | ')} |`,
    `| PostgreSQL + object storage growth a year (${bytesText(storagePerDauYear)} per DAU in tables and objects of the routes, ${bytesText(clipsPerDauYear)} of new speech clips) | ${SCALES.map((d) => bytesText(d * (storagePerDauYear + clipsPerDauYear))).join(' | ')} |`,
    `| Redis: concurrent clients × ${bytesText(perRateKey)} + ${fmt(retainedJobs)} retained jobs × ${bytesText(perJob)} | ${SCALES.map((d) => `${fmt(concurrent(d))} → ${bytesText(concurrent(d) * perRateKey + retainedJobs * perJob)}`).join(' | ')} |`,
    `| egress a day (answers as sent) | ${SCALES.map((d) => bytesText(egressPerDay(d))).join(' | ')} |`,
    '',
    '### Against deploy/kubernetes',
    '',
    `Replicas the model needs beside the autoscalers' bounds as rendered (base, production overlay). The base must hold ${scaleText(FITS.base)} DAU within its maximum, the production overlay ${scaleText(FITS.production)} DAU.`,
    '',
    `| deployment | base min–max | needs at ${scaleText(FITS.base)} | production min–max | needs at ${scaleText(FITS.production)} | verdict |`,
    '|---|---:|---:|---:|---:|---|',
  )
  const disagreements: string[] = []
  for (const name of base.keys()) {
    const b = base.get(name) as Scaling
    const p = production.get(name) ?? b
    const need = (d: number, s: Scaling) =>
      name === 'ai-worker' ? workersFor(d) : replicasFor(name, d, s)
    const [nb, np] = [need(FITS.base, b), need(FITS.production, p)]
    const verdicts: string[] = []
    if (nb > b.max) verdicts.push(`base max ${b.max} < ${nb}`)
    if (np > p.max) verdicts.push(`production max ${p.max} < ${np}`)
    if (verdicts.length) disagreements.push(`${name}: ${verdicts.join(', ')}`)
    lines.push(
      `| ${name} | ${b.min}–${b.max} | ${nb} | ${p.min}–${p.max} | ${np} | ${verdicts.length ? `**${verdicts.join('; ')}**` : 'holds'} |`,
    )
  }
  const jobSeconds = listLength / workerRate
  const atMaxima = dbServices.reduce(
    (s, name) => s + (production.get(name)?.max ?? 0) * (m.pools.get(name) ?? 0),
    0,
  )
  const serverConnections = pooler.replicas * pooler.poolSize
  const clientRoom = pooler.replicas * pooler.maxClients
  const busyAt = coresAt('postgres', FITS.production)
  const poolHolds = atMaxima <= clientRoom && busyAt <= serverConnections
  if (!poolHolds)
    disagreements.push(
      `pgbouncer: ${fmt(atMaxima)} clients for room of ${fmt(clientRoom)}, ${fmt(busyAt, 1)} busy server connections of ${fmt(serverConnections)}`,
    )
  lines.push(
    '',
    `With every service at the production overlay's maximum, the services hold ${fmt(atMaxima)} connections (${dbServices.map((n) => `${n} ${production.get(n)?.max ?? 0} × ${m.pools.get(n) ?? 0}`).join(', ')}), more than a small managed PostgreSQL allows. They are PgBouncer's clients (transaction mode; room for ${fmt(clientRoom)}: ${pooler.replicas} pods × ${fmt(pooler.maxClients)}), and PostgreSQL holds PgBouncer's ${fmt(serverConnections)} (${pooler.replicas} × ${pooler.poolSize}), of which ${fmt(busyAt, 1)} are busy at ${scaleText(FITS.production)} DAU's peak: ${poolHolds ? 'holds' : '**does not hold**'}.`,
    '',
    `KEDA's target of ${listLength} waiting jobs per worker is ${fmt(jobSeconds, 1)} s of work at ${fmt(workerRate, 1)} words/s (a request waits 10 s for its clip): ${jobSeconds <= 10 ? 'holds' : '**too long**'}.`,
    '',
    disagreements.length
      ? `Where the manifests disagree with the model: ${disagreements.join('; ')}.`
      : 'The manifests agree with the model at both scales.',
    '',
  )
  return lines.join('\n')
}
