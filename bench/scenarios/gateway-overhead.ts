import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { freePort } from '../../scripts/lib/ports.ts'
import { GATEWAY_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../scripts/lib/node-flags.ts'
import { load, ms, startProcess, stop, waitFor } from '../lib.ts'
import type { Section } from '../lib.ts'

const SPIN_US = 300

/** Two bare HTTP servers, one of them busy for SPIN_US per answer, measured at one connection. */
async function resolutionCheck(): Promise<{ plain: number; spun: number }> {
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
    const a = await load(urls[0] ?? '', { connections: 1, seconds: 3 })
    const b = await load(urls[1] ?? '', { connections: 1, seconds: 3 })
    return { plain: a.p50, spun: b.p50 }
  } finally {
    plain.close()
    spun.close()
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
    const direct = `http://127.0.0.1:${servicePort}/health`
    const through = `http://127.0.0.1:${gatewayPort}/api/health/astro`
    await load(direct, { seconds: 2 })
    await load(through, { seconds: 2 })
    const d = await load(direct)
    const g = await load(through)
    const ratio = g.requestsPerSecond / d.requestsPerSecond
    const added = g.p50 - d.p50
    // One connection: the latency one request adds, without queueing behind nine others.
    const d1 = await load(direct, { connections: 1, seconds: 5 })
    const g1 = await load(through, { connections: 1, seconds: 5 })
    const check = await resolutionCheck()
    const rows = [
      ['direct: astro `GET /health`, 10 connections', d],
      ['gateway: `GET /api/health/astro`, 10 connections', g],
      ['direct, 1 connection', d1],
      ['gateway, 1 connection', g1],
    ] as const
    return {
      markdown: [
        '## Gateway overhead',
        '',
        '10 connections, 10 s each after a 2 s warm-up; the same handler answers both.',
        '',
        '| route | requests/s | p50 | p90 | p99 | errors | non-2xx |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...rows.map(
          ([name, r]) =>
            `| ${name} | ${Math.round(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.errors} | ${r.non2xx} |`,
        ),
        '',
        `Throughput through the gateway: **${(ratio * 100).toFixed(0)}%** of direct (budget ≥ 35%). p50 added: **${ms(g1.p50 - d1.p50)}** at one connection, ${ms(added)} at ten, where it mostly measures queueing (budget ≤ 1 ms).`,
        '',
        `Latencies to the microsecond (hrtime per answer into an HDR histogram; autocannon's own keeps whole milliseconds). Self-check: a stand-in that spins ${SPIN_US} µs per answer reads ${ms(check.spun)} at p50 against ${ms(check.plain)} without, +${ms(check.spun - check.plain)} (must show ≥ ${SPIN_US * 0.8} µs): ${check.spun - check.plain >= (SPIN_US * 0.8) / 1000 ? 'yes' : '**no**'}.`,
        '',
      ].join('\n'),
    }
  } finally {
    await Promise.all([stop(gateway), stop(service)])
  }
}
