import { execFile, spawn, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../scripts/lib/ports.ts'
import { GATEWAY_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../scripts/lib/node-flags.ts'
import { load, ms, startProcess, stop, verdict, waitFor } from '../lib.ts'
import type { LoadResult, Section } from '../lib.ts'
import { securityHeadersFor } from '../../gateway/src/app.ts'
import { loadGatewayConfig } from '../../gateway/src/config.ts'

const SPIN_US = 300

/** Two bare HTTP servers, one of them busy for SPIN_US per answer, measured at one connection. */
async function resolutionCheck(
  measure: (
    url: string,
    options: { connections?: number; seconds?: number },
  ) => Promise<LoadResult>,
): Promise<{ plain: number; spun: number }> {
  const serve = (spinUs: number) =>
    createServer((_req, res) => {
      const until = process.hrtime.bigint() + BigInt(spinUs * 1000)
      while (process.hrtime.bigint() < until);
      res.end('ok')
    })
  const plain = serve(0)
  const spun = serve(SPIN_US)
  const urls = await Promise.all(
    [plain, spun].map(
      (server) =>
        new Promise<string>((resolve) =>
          server.listen(0, '127.0.0.1', () =>
            resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
          ),
        ),
    ),
  )
  try {
    const a = await measure(urls[0] ?? '', { connections: 1, seconds: 3 })
    const b = await measure(urls[1] ?? '', { connections: 1, seconds: 3 })
    return { plain: a.p50, spun: b.p50 }
  } finally {
    plain.close()
    spun.close()
  }
}

/**
 * wrk (Debian's package): a C load generator with microsecond percentiles. autocannon, in this
 * Node process, took a core of its own and read nginx's answers 16× slower than they came
 * (p50 2.5 ms at 6,400 requests/s over one connection); wrk's figures agree with curl's.
 */
const run = promisify(execFile)

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined
}

export async function wrk(
  url: string,
  options: { connections?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const connections = options.connections ?? 10
  // Asynchronous: the self-check's stand-ins answer from this very process.
  const out = await run('wrk', [
    '-t1',
    `-c${connections}`,
    `-d${options.seconds ?? 10}s`,
    '--latency',
    url,
  ])
  const text = out.stdout
  const toMs = (value: string) => {
    const [, n = 'NaN', unit = 'ms'] = /^([\d.]+)(us|ms|s)$/.exec(value) ?? []
    return Number(n) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1)
  }
  const at = (p: number) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(text)?.[1] ?? '')
  const count = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0),
    p50: at(50),
    p90: at(90),
    p99: at(99),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: count(/Non-2xx or 3xx responses: (\d+)/),
    total: count(/(\d+) requests in/),
  }
}

/** Debian's nginx, wherever the package puts it. */
export function nginxBinary(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate
  }
  return undefined
}

/**
 * What every nginx of the bench starts its configuration with: one worker in the foreground,
 * every file it writes in `dir`, no access log; the `http` block is left open for the rest.
 */
export function nginxPreamble(dir: string): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `  ${t}_temp_path ${join(dir, t)};`)
    .join('\n')
  return `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
${temp}`
}

/**
 * The reference proxy: nginx with one worker and a keep-alive upstream, doing what the gateway
 * does for this route — a request id passed up and sent back, a per-IP rate limit (as generous
 * as the gateway's here), and the gateway's own security headers.
 */
async function startNginx(
  binary: string,
  upstreamPort: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'crv-bench-nginx-'))
  const port = await freePort()
  const production = loadGatewayConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://crv.example.org',
  })
  const headers = Object.entries(securityHeadersFor(production).data)
    .map(([name, value]) => `      add_header ${name} "${value}" always;`)
    .join('\n')
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${nginxPreamble(dir)}
  limit_req_zone $binary_remote_addr zone=api:10m rate=100000000r/m;
  upstream astro {
    server 127.0.0.1:${upstreamPort};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location = /api/health/astro {
      limit_req zone=api burst=100000000 nodelay;
      proxy_pass http://astro/health;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Request-Id $request_id;
      proxy_set_header X-Forwarded-For $remote_addr;
      add_header x-request-id $request_id always;
${headers}
    }
  }
}
`,
  )
  const child = spawn(
    binary,
    ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')],
    // Its own process group, which `stop` signals: workers and master go together (spawned in
    // ours, the group signal failed and every run left an nginx behind).
    { stdio: 'ignore', detached: true },
  )
  const url = `http://127.0.0.1:${port}/api/health/astro`
  await waitFor(url)
  return {
    url,
    stop: async () => {
      await stop(child, 'SIGQUIT')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A trivial route (a service's liveness) directly and through the gateway, in one run. */
export async function gatewayOverhead(): Promise<Section> {
  const [servicePort, gatewayPort] = [await freePort(), await freePort()]
  const service = startProcess(
    [...SERVICE_NODE_FLAGS, 'src/server.ts'],
    { PORT: String(servicePort) },
    'services/astro',
  )
  const gateway = startProcess(
    [...GATEWAY_NODE_FLAGS, 'src/server.ts'],
    {
      PORT: String(gatewayPort),
      ASTRO_URL: `http://127.0.0.1:${servicePort}`,
      RATE_LIMIT_MAX: '100000000',
    },
    'gateway',
  )
  try {
    await waitFor(`http://127.0.0.1:${servicePort}/health`)
    await waitFor(`http://127.0.0.1:${gatewayPort}/api/health/astro`)
    const useWrk = hasWrk()
    const measure = async (
      url: string,
      options: { connections?: number; seconds?: number } = {},
    ) => (useWrk ? await wrk(url, options) : await load(url, options))
    const direct = `http://127.0.0.1:${servicePort}/health`
    const through = `http://127.0.0.1:${gatewayPort}/api/health/astro`
    await measure(direct, { seconds: 2 })
    await measure(through, { seconds: 2 })
    const d = await measure(direct)
    const g = await measure(through)
    const ratio = g.requestsPerSecond / d.requestsPerSecond
    const added = g.p50 - d.p50
    // One connection: the latency one request adds, without queueing behind nine others.
    const d1 = await measure(direct, { connections: 1, seconds: 5 })
    const g1 = await measure(through, { connections: 1, seconds: 5 })
    // The reference: nginx in front of the same service, measured in this same run.
    const binary = nginxBinary()
    let n: LoadResult | undefined
    let n1: LoadResult | undefined
    if (binary) {
      const nginx = await startNginx(binary, servicePort)
      try {
        await measure(nginx.url, { seconds: 2 })
        n = await measure(nginx.url)
        n1 = await measure(nginx.url, { connections: 1, seconds: 5 })
      } finally {
        await nginx.stop()
      }
    }
    const check = await resolutionCheck(measure)
    const checkReads = check.spun - check.plain >= (SPIN_US * 0.8) / 1000
    const addedAtOne = g1.p50 - d1.p50
    const rows: [string, LoadResult | undefined][] = [
      ['direct: astro `GET /health`, 10 connections', d],
      ['gateway: `GET /api/health/astro`, 10 connections', g],
      ['nginx 1 worker, same route and features, 10 connections', n],
      ['direct, 1 connection', d1],
      ['gateway, 1 connection', g1],
      ['nginx, 1 connection', n1],
    ]
    const versusNginx = n
      ? `Against nginx (Debian's package, one worker, keep-alive upstream, request ids, a per-IP limit and the same security headers): the gateway answers **${(g.requestsPerSecond / n.requestsPerSecond).toFixed(2)}×** its throughput (goal ≥ 0.8×) with p99 ${ms(g.p99)} against ${ms(n.p99)} (goal: no worse): ${g.requestsPerSecond >= 0.8 * n.requestsPerSecond && g.p99 <= n.p99 ? 'met' : '**not met**'}.`
      : 'nginx is not installed (`apt-get install nginx-light`): no reference this run.'
    return {
      markdown: [
        '## Gateway overhead',
        '',
        '10 connections, 10 s each after a 2 s warm-up; the same handler answers both.',
        '',
        '| route | requests/s | p50 | p90 | p99 | errors | non-2xx |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...rows.map(([name, r]) =>
          r
            ? `| ${name} | ${Math.round(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.errors} | ${r.non2xx} |`
            : `| ${name} | not run | | | | | |`,
        ),
        '',
        versusNginx,
        '',
        `Throughput through the gateway: **${(ratio * 100).toFixed(0)}%** of direct (budget ≥ 35%). p50 added: **${ms(addedAtOne)}** at one connection, ${ms(added)} at ten, where it mostly measures queueing (budget ≤ 1 ms).`,
        '',
        `${useWrk ? 'Load from wrk (one thread, Debian’s package): microsecond percentiles, and a load generator in C that leaves the CPU to what is measured.' : 'wrk is not installed (`apt-get install wrk`): load from autocannon, latencies to the microsecond (hrtime per answer into an HDR histogram).'} Self-check: a stand-in that spins ${SPIN_US} µs per answer reads ${ms(check.spun)} at p50 against ${ms(check.plain)} without, +${ms(check.spun - check.plain)} (must show ≥ ${SPIN_US * 0.8} µs): ${checkReads ? 'yes' : '**no**'}.`,
        '',
        // The peers and the bare forwarder of the same budget are the gateway-peers section's;
        // nginx is a reference, not a budget.
        verdict('DESIGN.md §7, gateway p50 added ≤ 1 ms, throughput ≥ 35 % of direct', [
          {
            what: `p50 added ${ms(addedAtOne)} at one connection (≤ 1 ms)`,
            ok: addedAtOne <= 1,
          },
          {
            what: `throughput ${(ratio * 100).toFixed(0)} % of direct (≥ 35 %)`,
            ok: ratio >= 0.35,
          },
          {
            what: `${SPIN_US} µs spun per answer read +${ms(check.spun - check.plain)}`,
            ok: checkReads,
            selfCheck: true,
          },
        ]),
        '',
      ].join('\n'),
    }
  } finally {
    await Promise.all([stop(gateway), stop(service)])
  }
}
