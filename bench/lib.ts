import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

export interface Section {
  markdown: string
}

export const root = fileURLToPath(new URL('../', import.meta.url))

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p90: number
  p99: number
  errors: number
  non2xx: number
  total: number
}

/** A steady closed-loop load: `connections` clients, each sending as soon as answered. */
export async function load(
  url: string,
  options: {
    seconds?: number
    connections?: number
    /** A steady rate (requests/s over all connections) instead of as fast as possible. */
    rate?: number
    method?: 'GET' | 'POST'
    body?: string
    headers?: Record<string, string>
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 10,
    duration: options.seconds ?? 10,
    method: options.method ?? 'GET',
    ...(options.rate ? { overallRate: options.rate } : {}),
    ...(options.body ? { body: options.body } : {}),
    headers: options.headers ?? {},
  })
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
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

/** Resident memory of a process tree (Linux /proc), in MiB. */
export async function treeRssMiB(pid: number): Promise<number> {
  const { readFile, readdir } = await import('node:fs/promises')
  const children = new Map<number, number[]>()
  const rss = new Map<number, number>()
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const status = await readFile(`/proc/${name}/status`, 'utf8')
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1])
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
      rss.set(Number(name), kb)
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0
  const stack = [pid]
  for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
    total += rss.get(p) ?? 0
    stack.push(...(children.get(p) ?? []))
  }
  return Math.round(total / 1024)
}

export const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`
