import { freePort } from '../../scripts/lib/ports.ts'
import { SERVICE_NODE_FLAGS } from '../../scripts/lib/node-flags.ts'
import { loadCityIndex } from '../../services/astro/src/geocoding/city-index.ts'
import { siderealTimes } from '../../services/astro/src/sidereal/sidereal-time.ts'
import { load, ms, startProcess, stop, treeMemoryMiB, verdict, waitFor } from '../lib.ts'
import type { Section } from '../lib.ts'

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN

/** Per-call time of `fn` over `texts`, repeated: p50 and p99 in ms. */
function timeEach<T>(texts: T[], rounds: number, fn: (t: T) => unknown) {
  const times: number[] = []
  for (let r = 0; r < rounds; r++) {
    for (const t of texts) {
      const started = performance.now()
      fn(t)
      times.push(performance.now() - started)
    }
  }
  times.sort((a, b) => a - b)
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) }
}

/**
 * The astro service: building the city index, a lookup (found and not found), one sidereal
 * computation (the full IAU 2000A series), the service's memory after start, and
 * `POST /api/sidereal-time/custom` under load.
 */
export async function astro(): Promise<Section> {
  const started = performance.now()
  const index = loadCityIndex()
  const buildMs = performance.now() - started
  const found = ['Berlin', 'sao paulo', 'Paris, TX', 'London, UK', 'Springfield, Illinois', 'Tokyo']
  const missing = ['Berln', 'Xyzzyq', 'Paris, Narnia', 'Londn']
  timeEach(found, 200, (t) => index.lookup(t))
  const hit = timeEach(found, 2000, (t) => index.lookup(t))
  const miss = timeEach(missing, 200, (t) => index.lookup(t))
  const instants = Array.from({ length: 50 }, (_, i) => new Date(Date.UTC(1900 + i * 4, i % 12)))
  const sidereal = timeEach(instants, 40, (d) => siderealTimes(d, 13.4))

  const port = await freePort()
  const service = startProcess(
    [...SERVICE_NODE_FLAGS, 'src/server.ts'],
    { PORT: String(port) },
    'services/astro',
  )
  try {
    await waitFor(`http://127.0.0.1:${port}/health`)
    const rssAtStart = service.pid ? (await treeMemoryMiB(service.pid)).rss : NaN
    const url = `http://127.0.0.1:${port}/api/sidereal-time/custom`
    const body = JSON.stringify({ location: 'Paris, TX', customTime: '2024-06-21T10:14:00Z' })
    const request = {
      method: 'POST' as const,
      body,
      headers: { 'content-type': 'application/json' },
    }
    await load(url, { ...request, seconds: 2 })
    const http = await load(url, { ...request, seconds: 10 })
    const rssAfterLoad = service.pid ? (await treeMemoryMiB(service.pid)).rss : NaN
    // Self-check: the same load on a path the service does not have must count its failures.
    const planted = await load(`http://127.0.0.1:${port}/api/sidereal-time/planted-missing`, {
      ...request,
      seconds: 1,
    })
    const failed = http.non2xx + http.errors
    return {
      markdown: [
        '## Astro: geocoding and sidereal time',
        '',
        '| measure | value |',
        '|---|---|',
        `| city index build (${index.size} places, in the bench process) | ${ms(buildMs)} |`,
        `| lookup, found: p50 / p99 | ${ms(hit.p50)} / ${ms(hit.p99)} |`,
        `| lookup, not found with suggestions: p50 / p99 | ${ms(miss.p50)} / ${ms(miss.p99)} |`,
        `| sidereal times of one instant (IAU 2006/2000A): p50 / p99 | ${ms(sidereal.p50)} / ${ms(sidereal.p99)} |`,
        `| astro service RSS after start / after load | ${rssAtStart} MiB / ${rssAfterLoad} MiB |`,
        `| \`POST /api/sidereal-time/custom\` direct, 10 connections | ${Math.round(http.requestsPerSecond)} req/s, p50 ${ms(http.p50)}, p99 ${ms(http.p99)}, ${failed} failed |`,
        '',
        `Self-check: the same load for 1 s on a path the service does not have reads ${planted.non2xx + planted.errors} of ${planted.total} failed (must be all): ${planted.total > 0 && planted.non2xx + planted.errors === planted.total ? 'yes' : '**no**'}.`,
        '',
        verdict('DESIGN.md §7, which sets no astro budget: held only to every request answered', [
          {
            what: `${failed} of ${http.total} \`POST /api/sidereal-time/custom\` failed`,
            ok: http.total > 0 && failed === 0,
          },
          {
            what: `a missing path read ${planted.non2xx + planted.errors} of ${planted.total} failed`,
            ok: planted.total > 0 && planted.non2xx + planted.errors === planted.total,
            selfCheck: true,
          },
        ]),
        '',
      ].join('\n'),
    }
  } finally {
    await stop(service)
  }
}
