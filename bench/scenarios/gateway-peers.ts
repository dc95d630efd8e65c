import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../scripts/lib/ports.ts'
import { GATEWAY_NODE_FLAGS } from '../../scripts/lib/node-flags.ts'
import { load, ms, startProcess, stop, treeMemory, verdict, waitFor } from '../lib.ts'
import type { LoadResult, Section } from '../lib.ts'
import { hasWrk, nginxBinary, nginxPreamble, wrk } from './gateway-overhead.ts'

/** The self-check peers: a bare forwarder that waits this long, or burns this much CPU, per request. */
// 10 ms, not 1: with other work on the machine a request through a bare forwarder took 8 ms, and
// 1 ms more read within the rounds' spread (1,233/s against 1,182/s).
const LATE_MS = 10
const SPIN_US = 50
// More, shorter rounds: on a shared machine the same proxy read 786/s in one round and 1,579/s
// in the next, and the median of four alternating rounds follows that drift less than two.
const ROUNDS = 4
const WARM_SECONDS = 3
const SECONDS = 6
/** A contract operation the gateway forwards to a service (astro's), with its query. */
const PATH = '/api/sidereal-time/auto?lat=51.5&lng=-0.12'

interface Proxy {
  name: string
  /** A Node gateway the goal says ours must be ahead of. */
  peer?: boolean
  check?: boolean
  /** nginx stops gracefully on SIGQUIT, Node on SIGTERM. */
  signal?: NodeJS.Signals
  start: (upstream: string, port: number) => ChildProcess | Promise<ChildProcess>
}

interface Reading {
  result: LoadResult
  /** CPU time the proxy's processes used during the measured run, in seconds. */
  cpuSeconds: number
}

const peer = (kind: string, amount?: number) => (upstream: string, port: number) =>
  startProcess(
    [
      ...GATEWAY_NODE_FLAGS,
      'bench/peer-proxies.ts',
      kind,
      String(port),
      upstream,
      ...(amount === undefined ? [] : [String(amount)]),
    ],
    {},
  )

/** nginx as a plain reverse proxy: one worker, a keep-alive upstream, nothing else. */
function startNginx(binary: string) {
  return (upstream: string, port: number): ChildProcess => {
    const dir = mkdtempSync(join(tmpdir(), 'crv-bench-peers-nginx-'))
    writeFileSync(
      join(dir, 'nginx.conf'),
      `${nginxPreamble(dir)}
  upstream service {
    server ${new URL(upstream).host};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location /api/ {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`,
    )
    // Its own process group, which `stop` signals: master and worker go together.
    const child = spawn(
      binary,
      ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')],
      { stdio: 'ignore', detached: true },
    )
    child.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    return child
  }
}

/** The gateway as the app starts it (scripts/start.ts), the upstream as its astro service. */
const ours = (upstream: string, port: number) =>
  startProcess(
    [...GATEWAY_NODE_FLAGS, 'src/server.ts'],
    { PORT: String(port), ASTRO_URL: upstream, RATE_LIMIT_MAX: '100000000' },
    'gateway',
  )

/** The same gateway with every request through Fastify's routes and hooks (FAST_PATH=false). */
const oursThroughFastify = (upstream: string, port: number) =>
  startProcess(
    [...GATEWAY_NODE_FLAGS, 'src/server.ts'],
    {
      PORT: String(port),
      ASTRO_URL: upstream,
      RATE_LIMIT_MAX: '100000000',
      FAST_PATH: 'false',
    },
    'gateway',
  )

/** CPU time (user + system) of a process and its children so far, in seconds. */
async function cpuOf(pid: number): Promise<number> {
  return (await treeMemory(pid)).reduce((sum, p) => sum + p.cpuSeconds, 0)
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length / 2
  return sorted.length % 2
    ? (sorted[Math.floor(middle)] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}

/**
 * The gateway against the Node gateways it is measured by (DESIGN.md §7), each in front of one
 * trivial upstream, one at a time, in alternating order over ROUNDS rounds; nginx as reference.
 */
export async function gatewayPeers(): Promise<Section> {
  const useWrk = hasWrk()
  const measure = (url: string, seconds: number) =>
    useWrk ? wrk(url, { connections: 10, seconds }) : load(url, { connections: 10, seconds })
  const nginx = nginxBinary()
  const proxies: Proxy[] = [
    ...(nginx
      ? [
          {
            name: 'nginx, one worker, plain proxy_pass',
            signal: 'SIGQUIT' as const,
            start: startNginx(nginx),
          },
        ]
      : []),
    { name: 'bare `node:http` + undici Pool forwarder', start: peer('bare') },
    { name: 'fast-gateway 3.4.7, plain', peer: true, start: peer('fast-gateway') },
    { name: '@fastify/http-proxy 11.6.3, plain', peer: true, start: peer('fastify-http-proxy') },
    { name: '**ours**: ids, rate limit, headers, host and cross-origin checks', start: ours },
    {
      name: 'ours with FAST_PATH=false: every request through Fastify, same features',
      start: oursThroughFastify,
    },
    {
      name: 'Fastify + the gateway’s forwarder, no hooks (where the cost is)',
      start: peer('fastify-forwarder'),
    },
    {
      name: `self-check: bare forwarder waiting ${LATE_MS} ms per request`,
      check: true,
      start: peer('bare-late', LATE_MS),
    },
    {
      name: `self-check: bare forwarder burning ${SPIN_US} µs of CPU per request`,
      check: true,
      start: peer('bare-spin', SPIN_US),
    },
  ]
  const readings = new Map<Proxy, Reading[]>(proxies.map((p) => [p, []]))
  const upstreamPort = await freePort()
  const upstream = `http://127.0.0.1:${upstreamPort}`
  const upstreamProcess = peer('upstream')(upstream, upstreamPort)
  try {
    await waitFor(`${upstream}/health`)
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order: whatever drifts during a run (the host's steal, a warm cache) does not
      // always favour the same proxy.
      const order = round % 2 === 0 ? proxies : [...proxies].reverse()
      for (const proxy of order) {
        const port = await freePort()
        const child = await proxy.start(upstream, port)
        try {
          const url = `http://127.0.0.1:${port}${PATH}`
          await waitFor(url)
          await measure(url, WARM_SECONDS)
          const before = await cpuOf(child.pid ?? 0)
          const result = await measure(url, SECONDS)
          const cpuSeconds = (await cpuOf(child.pid ?? 0)) - before
          readings.get(proxy)?.push({ result, cpuSeconds })
          console.log(
            `gateway-peers: round ${round + 1}, ${proxy.name}: ${Math.round(result.requestsPerSecond)}/s, ${((cpuSeconds / result.total) * 1e6).toFixed(1)} CPU-µs`,
          )
        } finally {
          await stop(child, proxy.signal)
        }
      }
    }
  } finally {
    await stop(upstreamProcess)
  }

  const summary = new Map(
    proxies.map((proxy) => {
      const runs = readings.get(proxy) ?? []
      const rates = runs.map((r) => r.result.requestsPerSecond)
      const total = runs.reduce((sum, r) => sum + r.result.total, 0)
      return [
        proxy,
        {
          rate: median(rates),
          low: Math.min(...rates),
          high: Math.max(...rates),
          p50: median(runs.map((r) => r.result.p50)),
          p99: median(runs.map((r) => r.result.p99)),
          cpuMicros: (runs.reduce((sum, r) => sum + r.cpuSeconds, 0) / total) * 1e6,
          failed: runs.reduce((sum, r) => sum + r.result.errors + r.result.non2xx, 0),
        },
      ]
    }),
  )
  const named = (name: string) => proxies.find((p) => p.name.startsWith(name))
  const of = (proxy: Proxy | undefined) => (proxy ? summary.get(proxy) : undefined)
  const reference = of(nginx ? proxies[0] : undefined)
  const bare = of(named('bare `node:http`'))
  const ourRow = of(named('**ours**'))
  const fastifyRow = of(named('ours with FAST_PATH=false'))
  const late = of(named('self-check: bare forwarder waiting'))
  const spun = of(named('self-check: bare forwarder burning'))
  const peers = proxies.filter((p) => p.peer).map((p) => [p, of(p)] as const)
  const times = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined ? `${(a / b).toFixed(2)}×` : '–'

  const ratioOf = (
    row: { cpuMicros: number } | undefined,
    base: { cpuMicros: number } | undefined,
  ) => (row && base ? `${(row.cpuMicros / base.cpuMicros).toFixed(2)}×` : '–')
  const ahead = peers.every(([, s]) => ourRow && s && ourRow.rate > s.rate)
  const ofBare = ourRow && bare ? ourRow.rate / bare.rate : Number.NaN
  const fastifyOfBare = fastifyRow && bare ? fastifyRow.rate / bare.rate : Number.NaN
  const lateReadsSlower = Boolean(late && bare && late.rate < bare.rate)
  const spinShows = Boolean(spun && bare && spun.cpuMicros - bare.cpuMicros >= SPIN_US * 0.8)
  return {
    markdown: [
      '## Gateway against its Node peers',
      '',
      `One trivial upstream (node:http, a small JSON answer) behind each proxy in turn, \`GET ${PATH.split('?')[0]}\` with a query; ${useWrk ? 'wrk -t1 -c10' : 'autocannon, 10 connections (wrk is not installed)'}, ${WARM_SECONDS} s warm-up then ${SECONDS} s measured, ${ROUNDS} rounds in alternating order, each proxy started afresh each round. Node processes run with the gateway's V8 flags (\`${GATEWAY_NODE_FLAGS.join(' ')}\`). Requests/s, p50 and p99 are the median of the rounds (requests/s lowest–highest beside it), CPU-µs the proxy's own processes' user + system time (/proc/<pid>/stat) over the measured runs divided by their requests.`,
      '',
      '| proxy | requests/s | rounds | p50 | p99 | × nginx | × bare | CPU-µs/request | errors + non-2xx |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...proxies.map((proxy) => {
        const s = summary.get(proxy)
        return s
          ? `| ${proxy.name} | ${Math.round(s.rate)} | ${Math.round(s.low)}–${Math.round(s.high)} | ${ms(s.p50)} | ${ms(s.p99)} | ${times(s.rate, reference?.rate)} | ${times(s.rate, bare?.rate)} | ${s.cpuMicros.toFixed(1)} | ${s.failed} |`
          : `| ${proxy.name} | not run | | | | | | | |`
      }),
      '',
      nginx
        ? ''
        : 'nginx is not installed (`apt-get install nginx-light`): no reference row this run.\n',
      `Goal (DESIGN.md §7): with every feature on, ahead of every Node gateway peer and ≥ 0.9× the bare forwarder. Ours is ${ahead ? 'ahead of' : '**behind**'} ${peers.map(([p]) => p.name.split(',')[0]).join(' and ')}, at **${ofBare.toFixed(2)}×** the bare forwarder: ${ahead && ofBare >= 0.9 ? 'met' : '**not met**'}.`,
      '',
      `Ours answers a GET of a forwarded operation on \`node:http\` before Fastify (gateway/src/fast-path.ts, with the same checks and headers); with that off (FAST_PATH=false) it reads **${fastifyOfBare.toFixed(2)}×** the bare forwarder.`,
      '',
      // Requests/s on a loaded machine follows the other work; the CPU a proxy spends per
      // request follows it much less, and ranks the proxies the same way run after run.
      `By CPU per request against the bare forwarder's ${bare?.cpuMicros.toFixed(1)} µs: ours ${ratioOf(ourRow, bare)}, ours through Fastify ${ratioOf(fastifyRow, bare)}, ${peers.map(([p, s]) => `${p.name.split(',')[0]} ${ratioOf(s, bare)}`).join(', ')} (lower is better).`,
      '',
      `Self-check: the bare forwarder made to wait ${LATE_MS} ms per request reads ${Math.round(late?.rate ?? 0)}/s against ${Math.round(bare?.rate ?? 0)}/s (must read below): ${lateReadsSlower ? 'yes' : '**no**'}; made to burn ${SPIN_US} µs of CPU per request it reads ${spun?.cpuMicros.toFixed(1)} CPU-µs against ${bare?.cpuMicros.toFixed(1)} (must read ≥ ${SPIN_US * 0.8} more): ${spinShows ? 'yes' : '**no**'}.`,
      '',
      verdict('DESIGN.md §7 (the gateway against its Node peers)', [
        ...peers.map(([p, s]) => ({
          what: `ours ahead of ${p.name.split(',')[0]} (${Math.round(ourRow?.rate ?? 0)}/s against ${Math.round(s?.rate ?? 0)}/s)`,
          ok: Boolean(ourRow && s && ourRow.rate > s.rate),
        })),
        { what: `ours ≥ 0.9× the bare forwarder (${ofBare.toFixed(2)}×)`, ok: ofBare >= 0.9 },
        {
          what: `a forwarder ${LATE_MS} ms late reads slower`,
          ok: lateReadsSlower,
          selfCheck: true,
        },
        {
          what: `${SPIN_US} µs of CPU per request shows in CPU-µs`,
          ok: spinShows,
          selfCheck: true,
        },
      ]),
      '',
    ].join('\n'),
  }
}
