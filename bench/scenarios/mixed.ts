import { fileURLToPath } from 'node:url'
import { render } from '../../scripts/lib/kustomize.ts'
import { grainyJpeg } from '../../test/pictures.ts'
import { arrivals, ms, percentile, treeMemory, verdict, withStandIn } from '../lib.ts'
import type { Outgoing, ProcessMemory, Section } from '../lib.ts'
import { startApp } from './app.ts'
import type { RunningApp } from './app.ts'
import { eveningRoutes, LANGUAGES, SPOKEN_WORDS } from '../../deploy/k6/evening-mix.ts'
import type { EveningFixture, EveningRoute, Who } from '../../deploy/k6/evening-mix.ts'

// A busy evening (the mix of deploy/k6/busy-evening.ts) through the gateway of the whole app:
// visitors browsing, people training, speech, an administrator. Three measurements:
//   1. steady load: the mix at its base rate for a 10-minute soak, per-route latency and errors;
//   2. memory of every process at rest, after a minute of load, each minute, at the end and
//      at rest again (growth beyond noise would be a leak);
//   3. the saturation point: the mix scaled up step by step until it no longer keeps up.
// BENCH_SOAK_MINUTES shortens the soak while working on the bench itself.

const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10)
const WARM_UP_SECONDS = 60
const STEP_SECONDS = 10
const STEPS = [1, 2, 3, 4, 6, 8, 12]
/** A saturation step keeps up while its answers come within this long of being due. */
const KEEPS_UP_WITHIN_MS = 1_000
const USER = '+15550008001'
const ADMIN = '+15550008002'

/** Limits a single load generator would trip (all traffic comes from one address and user). */
export const LIMITS = {
  ADMIN_PHONES: ADMIN,
  AI_RATE_LIMIT_ANONYMOUS: '100000000',
  AI_RATE_LIMIT_IP: '100000000',
  AI_RATE_LIMIT_USER: '100000000',
  EVENTS_PER_MINUTE: '10000',
}

type Route = EveningRoute

interface RouteResult {
  route: Route
  offered: number
  latencies: number[]
  non2xx: number
  errors: number
  seconds: number
}

/** Requests sent so far by route, across runs: each custom word of the evening is a new one. */
const sent = new Map<string, number>()

/** The route's n-th request as its user sends it (the capacity model sends them alike). */
export function routeRequest(
  base: string,
  route: Route,
  tokens: Record<Who, string>,
): (n: number) => Outgoing & Required<Pick<Outgoing, 'method' | 'headers'>> {
  const headers: Record<string, string> = {
    'accept-encoding': 'br, gzip',
    ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}),
    ...(route.who === 'visitor' ? {} : { authorization: `Bearer ${tokens[route.who]}` }),
  }
  return (n) => {
    const { path, body } = route.next(n)
    return {
      url: base + path,
      method: route.method,
      headers,
      ...(body === undefined ? {} : { body }),
    }
  }
}

/**
 * Every route at `scale` × its base rate at once, for `seconds`, as open-loop steady arrivals
 * (each route at its own phase, so the routes do not arrive in step); each response's latency
 * from the moment its request was due.
 */
export async function runMix(
  app: { base: string },
  mix: Route[],
  tokens: Record<Who, string>,
  scale: number,
  seconds: number,
): Promise<RouteResult[]> {
  return Promise.all(
    mix.map(async (route) => {
      const rate = Math.max(1, Math.round(route.rate * scale))
      const requestOf = routeRequest(app.base, route, tokens)
      const run = await arrivals({
        rate,
        seconds,
        phaseMs: Math.random() * (1000 / rate),
        send: () => {
          const n = sent.get(route.id) ?? 0
          sent.set(route.id, n + 1)
          return requestOf(n)
        },
      })
      return { route, offered: rate, ...run }
    }),
  )
}

/** How late the self-check's stand-in answers: the mix must read at least this at the median. */
const PLANTED_LATE_MS = 30

/**
 * The self-check: the same mix, from the same process, against a stand-in that answers every
 * request at once (what the load generator itself adds) and one that answers PLANTED_LATE_MS
 * late (which the figures must show).
 */
const standIn = (mix: Route[], tokens: Record<Who, string>, lateMs: number) =>
  withStandIn(lateMs, async (base) => summary(await runMix({ base }, mix, tokens, 1, STEP_SECONDS)))

function summary(results: RouteResult[]) {
  const offered = results.reduce((s, r) => s + r.offered, 0)
  // Open-loop: every request is sent; one answered more than a second after it was due is late.
  const inTime = results.reduce(
    (s, r) => s + r.latencies.filter((l) => l <= KEEPS_UP_WITHIN_MS).length,
    0,
  )
  const seconds = results[0]?.seconds ?? 1
  const failed = results.reduce((s, r) => s + r.non2xx + r.errors, 0)
  const all = results.flatMap((r) => r.latencies)
  return {
    offered,
    achieved: inTime / seconds,
    failedShare:
      failed /
      Math.max(
        1,
        results.reduce((s, r) => s + r.latencies.length + r.errors, 0),
      ),
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
    slowest: results
      .map((r) => ({ name: r.route.name, p99: percentile(r.latencies, 99) }))
      .sort((a, b) => b.p99 - a.p99)[0],
  }
}

export async function setUp(app: RunningApp): Promise<EveningFixture> {
  const [user, admin] = [await app.signIn(USER), await app.signIn(ADMIN)]
  const get = async <T>(path: string) => (await (await fetch(app.base + path)).json()) as T
  const gestalts = await get<{ id: number }[]>('/api/gestalts?language=en')
  const perceptions = await get<{ id: number }[]>('/api/perceptions?language=en')
  const page = await (await fetch(`${app.base}/`)).text()
  // A visitor's page is a pre-rendered shell that names the app's entry in `data-app`.
  const asset = /(?:data-app|src)="(\/assets\/[^"]+\.js)"/.exec(page)?.[1]
  if (!asset) throw new Error('the app page names no script')
  // Pictures for the tachistoscope, uploaded as an administrator does.
  const imageIds: string[] = []
  for (let i = 0; i < 3; i++) {
    const picture = await grainyJpeg(800, 600, 70)
    const form = new FormData()
    form.append('category', 'random')
    form.append(
      'file',
      new Blob([new Uint8Array(picture)], { type: 'image/jpeg' }),
      `evening-${i}.jpg`,
    )
    const res = await fetch(`${app.base}/api/tachistoscope/images/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    })
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`)
    imageIds.push(((await res.json()) as { id: string }).id)
  }
  // The speech words of the mix, said once so that the evening hears them from the cache.
  for (const language of LANGUAGES)
    for (const word of SPOKEN_WORDS) {
      const res = await fetch(`${app.base}/api/ai/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user}`, 'content-type': 'application/json' },
        body: JSON.stringify({ word, language }),
      })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`speech answered ${res.status}`)
    }
  return {
    gestaltIds: gestalts.map((g) => g.id),
    perceptionIds: perceptions.map((p) => p.id),
    imageIds,
    asset,
  }
}

/** Access tokens last 15 minutes: a fresh pair for each phase. */
export async function freshTokens(app: RunningApp): Promise<Record<Who, string>> {
  return { visitor: '', user: await app.signIn(USER), admin: await app.signIn(ADMIN) }
}

const byName = (tree: ProcessMemory[]) => {
  const m = new Map<string, ProcessMemory>()
  for (const p of tree) if (p.name !== 'sh') m.set(p.name, p)
  return m
}

export async function mixed(): Promise<Section> {
  const app = await startApp(LIMITS)
  const pid = app.process.pid
  if (!pid) throw new Error('no launcher pid')
  try {
    const fixture = await setUp(app)
    const mix = eveningRoutes(fixture, String(Date.now() % 1e6))
    const base = mix.reduce((s, r) => s + r.rate, 0)

    await new Promise((r) => setTimeout(r, 5_000))
    const atRest = byName(await treeMemory(pid))

    // 1 + 2: warm-up minute, then the soak, memory sampled each minute.
    let tokens = await freshTokens(app)
    console.log(
      `bench: busy evening at ${base} requests/s: 1 min warm-up, ${SOAK_MINUTES} min soak`,
    )
    await runMix(app, mix, tokens, 1, WARM_UP_SECONDS)
    const warm = byName(await treeMemory(pid))
    const samples: Map<string, ProcessMemory>[] = []
    const soak: RouteResult[][] = []
    for (let minute = 0; minute < SOAK_MINUTES; minute++) {
      soak.push(await runMix(app, mix, tokens, 1, 60))
      samples.push(byName(await treeMemory(pid)))
    }
    await new Promise((r) => setTimeout(r, 30_000))
    const restAfter = byName(await treeMemory(pid))
    const steady: RouteResult[] = mix.map((route, i) => ({
      route,
      offered: route.rate,
      latencies: soak.flatMap((m) => m[i]?.latencies ?? []),
      non2xx: soak.reduce((s, m) => s + (m[i]?.non2xx ?? 0), 0),
      errors: soak.reduce((s, m) => s + (m[i]?.errors ?? 0), 0),
      seconds: 60 * SOAK_MINUTES,
    }))

    const generator = {
      alone: await standIn(mix, tokens, 0),
      late: await standIn(mix, tokens, PLANTED_LATE_MS),
    }

    // 3: the saturation point.
    tokens = await freshTokens(app)
    const steps: { scale: number; s: ReturnType<typeof summary> }[] = []
    for (const scale of STEPS) {
      console.log(`bench: busy evening × ${scale}`)
      await runMix(app, mix, tokens, scale, 2)
      const s = summary(await runMix(app, mix, tokens, scale, STEP_SECONDS))
      steps.push({ scale, s })
      if (s.achieved < 0.95 * s.offered || s.failedShare > 0.01) break
    }
    const kept = steps.filter((x) => x.s.achieved >= 0.95 * x.s.offered && x.s.failedShare <= 0.01)
    const saturated = steps.find((x) => !kept.includes(x))

    return {
      markdown: report(
        base,
        steady,
        atRest,
        warm,
        samples,
        restAfter,
        steps,
        kept.at(-1),
        saturated,
        generator,
      ),
    }
  } finally {
    await app.close()
  }
}

function report(
  base: number,
  steady: RouteResult[],
  atRest: Map<string, ProcessMemory>,
  warm: Map<string, ProcessMemory>,
  samples: Map<string, ProcessMemory>[],
  restAfter: Map<string, ProcessMemory>,
  steps: { scale: number; s: ReturnType<typeof summary> }[],
  lastKept: { scale: number; s: ReturnType<typeof summary> } | undefined,
  saturated: { scale: number; s: ReturnType<typeof summary> } | undefined,
  generator: { alone: ReturnType<typeof summary>; late: ReturnType<typeof summary> },
): string {
  const mib = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(0))
  const seconds = 60 * SOAK_MINUTES
  const total = summary(steady)
  const scenarios = ['browsing', 'training', 'speech', 'admin'] as const
  const last = samples.at(-1) ?? warm
  const middle = Math.floor((samples.length - 1) / 2)
  // A budgeted route is within budget when its budgeted percentile is, and none of it failed.
  const within = (r: RouteResult) =>
    r.route.budget
      ? percentile(r.latencies, r.route.budget.percentile) <= r.route.budget.ms &&
        r.non2xx + r.errors === 0
      : undefined
  const generatorReads = generator.late.p50 >= PLANTED_LATE_MS
  const lines = [
    '## A busy evening: the whole mix through the gateway',
    '',
    `The scenarios of \`deploy/k6/busy-evening.ts\` at once against the whole app on its embedded defaults (PGlite, no Redis): ${scenarios.map((sc) => `${sc} ${steady.filter((r) => r.route.scenario === sc).reduce((s, r) => s + r.offered, 0)}/s`).join(', ')} — ${base} requests/s in all, each route at a steady rate (open loop: each route's requests due at even intervals at its own phase and timed from when they were due), one signed-in user and one administrator, after a ${WARM_UP_SECONDS} s warm-up. Latency of every response over the whole ${SOAK_MINUTES}-minute soak.`,
    '',
    '| route | budget | requests/s | p50 | p95 | p99 | non-2xx | errors | within budget |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...steady.map((r) => {
      const l = r.latencies
      const ok = within(r)
      return `| ${r.route.name} | ${r.route.budget?.text ?? ''} | ${(l.length / seconds).toFixed(1)} | ${ms(percentile(l, 50))} | ${ms(percentile(l, 95))} | ${ms(percentile(l, 99))} | ${r.non2xx} | ${r.errors} | ${ok === undefined ? '' : ok ? 'yes' : '**no**'} |`
    }),
    `| **all routes** | | ${total.achieved.toFixed(0)} | ${ms(total.p50)} | ${ms(total.p95)} | ${ms(total.p99)} | ${steady.reduce((s, r) => s + r.non2xx, 0)} | ${steady.reduce((s, r) => s + r.errors, 0)} | |`,
    '',
    `Self-check, the same mix for ${STEP_SECONDS} s from the same process against a stand-in: answering at once it reads p50 ${ms(generator.alone.p50)}, p99 ${ms(generator.alone.p99)} (what the load generator itself adds); answering ${PLANTED_LATE_MS} ms late, p50 ${ms(generator.late.p50)} (must read ≥ ${PLANTED_LATE_MS} ms): ${generatorReads ? 'yes' : '**no**'}.`,
    '',
    '### Memory over the soak',
    '',
    `PSS of each process in MiB (its private pages and its share of shared ones; the sum is the whole stack), sampled at rest after start, after the warm-up minute, at the end of soak minutes 1, ${middle + 1} and ${SOAK_MINUTES}, and 30 s after the load stopped. Growth is over the soak itself (minute ${SOAK_MINUTES} − minute 1), so that what the warm-up fills (JIT code, caches, connection pools) is not read as a leak; the second half shows whether anything still climbs.`,
    '',
    `| process | at rest | warm | soak min 1 | min ${middle + 1} | min ${SOAK_MINUTES} | growth in the soak | of which 2nd half | at rest after |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  const first = samples[0] ?? warm
  const half = samples[middle] ?? first
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(0)}`
  const row = (label: string, pss: (m: Map<string, ProcessMemory>) => number | undefined) => {
    const at = (m: Map<string, ProcessMemory>) => pss(m) ?? Number.NaN
    return `| ${label} | ${mib(pss(atRest))} | ${mib(pss(warm))} | ${mib(pss(first))} | ${mib(pss(half))} | ${mib(pss(last))} | ${signed(at(last) - at(first))} | ${signed(at(last) - at(half))} | ${mib(pss(restAfter))} |`
  }
  for (const name of warm.keys()) lines.push(row(name, (m) => m.get(name)?.pssMiB))
  lines.push(
    row('**whole stack**', (m) => [...m.values()].reduce((s, p) => s + p.pssMiB, 0)),
    '',
    ...requestsTable(warm, samples, seconds, base),
    '',
    '### Saturation',
    '',
    `The same mix scaled up, ${STEP_SECONDS} s per step after a 2 s ramp; a step keeps up when at least 95 % of the offered requests are answered within ${KEEPS_UP_WITHIN_MS / 1000} s of being due and at most 1 % fail; "answered" counts those in time.`,
    '',
    '| scale | offered requests/s | answered requests/s | failed | p50 | p95 | p99 | slowest route (p99) |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...steps.map(
      ({ scale, s }) =>
        `| ${scale}× | ${s.offered} | ${s.achieved.toFixed(0)} | ${(100 * s.failedShare).toFixed(1)} % | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${s.slowest?.name ?? ''} ${ms(s.slowest?.p99 ?? Number.NaN)} |`,
    ),
    '',
    lastKept
      ? `Saturation point: the mix keeps up at **${lastKept.s.offered} requests/s** (${lastKept.scale}× the evening)${saturated ? ` and falls behind at ${saturated.s.offered} requests/s (${saturated.scale}×)` : ', the highest step tried'}.`
      : 'Saturation point: the mix did not keep up even at its base rate.',
    '',
    verdict(
      'DESIGN.md §7, the budgeted routes within their budgets under the whole mix, none of their requests failed',
      [
        ...steady.flatMap((r) => {
          const budget = r.route.budget
          if (!budget) return []
          const read = percentile(r.latencies, budget.percentile)
          return [
            {
              what: `${r.route.name} p${budget.percentile} ${ms(read)} (${budget.text}), ${r.non2xx + r.errors} failed`,
              ok: within(r) === true,
            },
          ]
        }),
        {
          what: `a stand-in ${PLANTED_LATE_MS} ms late read p50 ${ms(generator.late.p50)}`,
          ok: generatorReads,
          selfCheck: true,
        },
      ],
    ),
    '',
  )
  return lines.join('\n')
}

/** The Kubernetes requests of deploy/kubernetes/base, as rendered: CPU in cores, memory in MiB. */
function kubernetesRequests(): Map<string, { cpu: number; memoryMiB: number }> {
  const requests = new Map<string, { cpu: number; memoryMiB: number }>()
  for (const r of render(fileURLToPath(new URL('../../deploy/kubernetes/base', import.meta.url)))) {
    if (r.kind !== 'Deployment') continue
    const spec = r.spec as {
      template: { spec: { containers: { resources: { requests: Record<string, string> } }[] } }
    }
    const want = spec.template.spec.containers[0]?.resources.requests ?? {}
    const cpu = want.cpu ?? '0'
    requests.set(r.metadata.name, {
      cpu: cpu.endsWith('m') ? Number(cpu.slice(0, -1)) / 1000 : Number(cpu),
      memoryMiB: Number((want.memory ?? '0').replace(/Mi$/, '')),
    })
  }
  return requests
}

/**
 * What each service used over the soak beside what its pod asks Kubernetes for: CPU as the
 * mean number of cores (CPU seconds over the soak's wall time, from /proc/<pid>/stat) and the
 * highest RSS sampled (a container shares no pages with the others, so RSS, not PSS, is what
 * its memory request must hold).
 */
function requestsTable(
  start: Map<string, ProcessMemory>,
  samples: Map<string, ProcessMemory>[],
  seconds: number,
  rate: number,
): string[] {
  const requests = kubernetesRequests()
  const end = samples.at(-1) ?? start
  const lines = [
    '### What each service needs: the Kubernetes requests',
    '',
    `CPU as mean cores over the ${seconds / 60}-minute soak at ${rate} requests/s (CPU time from /proc over wall time) and the highest RSS of the soak's samples, beside the requests of \`deploy/kubernetes/base\`. A pod asks for its memory peak at least; its CPU request is the floor the HorizontalPodAutoscaler scales against (70 % of it).`,
    '',
    '| service | CPU in the soak | requested CPU | RSS peak | requested memory | memory request holds the peak |',
    '|---|---:|---:|---:|---:|---|',
  ]
  for (const [name, want] of requests) {
    const first = start.get(name)
    const last = end.get(name)
    if (!first || !last) {
      lines.push(
        `| ${name} | not in the embedded stack | ${want.cpu} | – | ${want.memoryMiB} MiB | – |`,
      )
      continue
    }
    const cores = (last.cpuSeconds - first.cpuSeconds) / seconds
    const peak = Math.max(...samples.map((m) => m.get(name)?.rssMiB ?? 0))
    lines.push(
      `| ${name} | ${cores.toFixed(3)} | ${want.cpu} | ${peak.toFixed(0)} MiB | ${want.memoryMiB} MiB | ${peak <= want.memoryMiB ? 'yes' : '**no**'} |`,
    )
  }
  return lines
}
