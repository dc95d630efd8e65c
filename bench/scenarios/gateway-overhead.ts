import { freePort } from '../../scripts/lib/ports.ts'
import { GATEWAY_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../scripts/lib/node-flags.ts'
import { load, ms, startProcess, stop, waitFor } from '../lib.ts'
import type { Section } from '../lib.ts'

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
    const rows = [
      ['direct: astro `GET /health`', d],
      ['gateway: `GET /api/health/astro`', g],
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
        `Throughput through the gateway: **${(ratio * 100).toFixed(0)}%** of direct (budget ≥ 35%). p50 added: **${ms(added)}** (budget ≤ 1 ms; under saturation the p50 mostly measures queueing at 10 connections, so it is an upper bound).`,
        '',
      ].join('\n'),
    }
  } finally {
    await Promise.all([stop(gateway), stop(service)])
  }
}
