import { load, ms, verdict, withStandIn } from '../lib.ts'
import type { LoadResult, Section } from '../lib.ts'
import { startApp } from './app.ts'

const RATE = 200
/** How late the self-check's stand-in answers: the figures must show at least this. */
const PLANTED_LATE_MS = 20

/** The same load against a stand-in that answers `lateMs` late (0: the generator's own floor). */
const standIn = (lateMs: number) =>
  withStandIn(lateMs, (base) => load(`${base}/`, { seconds: 10, rate: RATE }))

/** The trainer's two hot calls through the gateway at a steady 200 requests/s (DESIGN.md §7). */
export async function descriptors(): Promise<Section> {
  const sections = [await measureOn('embedded PostgreSQL (PGlite)', {})]
  // With DATABASE_URL set, the same calls against that PostgreSQL server too.
  if (process.env.DATABASE_URL)
    sections.push(
      await measureOn('PostgreSQL server (DATABASE_URL)', {
        DATABASE_URL: process.env.DATABASE_URL,
      }),
    )
  return { markdown: sections.join('\n') }
}

async function measureOn(database: string, env: Record<string, string>): Promise<string> {
  const app = await startApp(env)
  try {
    const token = await app.signIn(`+1555999${String(Date.now()).slice(-4)}`)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const gestalts = (await (await fetch(`${app.base}/api/gestalts?language=en`)).json()) as {
      id: number
    }[]
    const random = JSON.stringify({
      gestaltIds: gestalts.map((g) => g.id),
      perceptionIds: [],
      stages: ['Stage 1-2'],
      language: 'en',
    })
    const steady = { seconds: 10, rate: RATE }
    const runs: [string, number, LoadResult][] = []
    const measure = async (
      name: string,
      budgetMs: number,
      url: string,
      options: Parameters<typeof load>[1],
    ) => {
      await load(url, { ...options, seconds: 2 })
      runs.push([name, budgetMs, await load(url, { ...steady, ...options })])
    }
    // Within budget: p99 at most the budget, and every request answered with a 2xx.
    const within = (budgetMs: number, r: LoadResult) =>
      r.p99 <= budgetMs && r.errors === 0 && r.non2xx === 0
    // As a browser asks: the answer comes compressed, and compressing it is part of the time.
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' }
    await measure(
      '`GET /api/descriptors/bulk?language=en` visitor',
      50,
      `${app.base}/api/descriptors/bulk?language=en`,
      { headers: browser },
    )
    await measure(
      '`GET /api/descriptors/bulk?language=en` signed in',
      50,
      `${app.base}/api/descriptors/bulk?language=en`,
      { headers: { ...auth, ...browser } },
    )
    await measure(
      '`POST /api/descriptors/random` signed in',
      20,
      `${app.base}/api/descriptors/random`,
      {
        method: 'POST',
        body: random,
        headers: auth,
      },
    )
    const [alone, late] = [await standIn(0), await standIn(PLANTED_LATE_MS)]
    return [
      `## Descriptor trainer calls: ${database}`,
      '',
      `The whole app, through the gateway, ${RATE} requests/s for 10 s after a 2 s warm-up, open loop: a request due every ${1000 / RATE} ms whatever the earlier ones are doing, each timed from when it was due (undici, the answer read as bytes); the list asked for as a browser asks (\`Accept-Encoding: gzip, deflate, br, zstd\`).`,
      '',
      '| route | budget | requests/s | p50 | p90 | p99 | errors | non-2xx | within budget |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        ([name, budgetMs, r]) =>
          `| ${name} | p99 ≤ ${budgetMs} ms | ${Math.round(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.errors} | ${r.non2xx} | ${within(budgetMs, r) ? 'yes' : '**no**'} |`,
      ),
      '',
      `Self-check, the same load against a stand-in: answering at once it reads p50 ${ms(alone.p50)}, p99 ${ms(alone.p99)} (the load generator's own share); answering ${PLANTED_LATE_MS} ms late, p50 ${ms(late.p50)} (must read ≥ ${PLANTED_LATE_MS} ms): ${late.p50 >= PLANTED_LATE_MS ? 'yes' : '**no**'}.`,
      '',
      verdict(
        `DESIGN.md §7, bulk p99 ≤ 50 ms and random p99 ≤ 20 ms at ${RATE} requests/s, every request answered`,
        [
          ...runs.map(([name, budgetMs, r]) => ({
            what: `${name} p99 ${ms(r.p99)} (≤ ${budgetMs} ms), ${r.errors + r.non2xx} failed`,
            ok: within(budgetMs, r),
          })),
          {
            what: `a stand-in ${PLANTED_LATE_MS} ms late read p50 ${ms(late.p50)}`,
            ok: late.p50 >= PLANTED_LATE_MS,
            selfCheck: true,
          },
        ],
      ),
      '',
    ].join('\n')
  } finally {
    await app.close()
  }
}
