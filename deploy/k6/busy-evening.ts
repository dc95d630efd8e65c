// A busy evening on CRV Training, for ops to run against a deployment with k6 (k6 runs
// TypeScript directly): visitors browsing, people training, speech requests, an administrator —
// every route of deploy/k6/evening-mix.ts at its own steady rate, the mix that `npm run bench`
// runs on one machine with open-loop arrivals of its own (bench/scenarios/mixed.ts).
//
//   k6 run -e BASE_URL=https://crv.example -e USER_TOKEN=… -e ADMIN_TOKEN=… deploy/k6/busy-evening.ts
//
// Tokens are access tokens of a test user and a test administrator (sign them in through the
// app; they last 15 minutes, so keep DURATION under that). Without them the signed-in routes are
// left out. SCALE multiplies every rate (find the saturation point with 1, 2, 4, …); DURATION
// is k6's (default 5m). The speech route expects its words in the speech cache: run once with
// SCALE=0.1 first, or read its first minute as uncached.
import http from 'k6/http'
import { check } from 'k6'
import exec from 'k6/execution'
import type { Options } from 'k6/options'
import { eveningRoutes } from './evening-mix.ts'
import type { EveningFixture, Who } from './evening-mix.ts'

const BASE = __ENV.BASE_URL ?? 'http://127.0.0.1:8080'
const TOKENS: Record<Who, string> = {
  visitor: '',
  user: __ENV.USER_TOKEN ?? '',
  admin: __ENV.ADMIN_TOKEN ?? '',
}
const SCALE = Number(__ENV.SCALE ?? 1)
const DURATION = __ENV.DURATION ?? '5m'
const RUN = String(Date.now() % 1e6)

const canCall = (who: Who) => who === 'visitor' || TOKENS[who] !== ''
// Rates and names only: the fixture is read in setup().
const PLAN = eveningRoutes({ gestaltIds: [], perceptionIds: [], imageIds: [], asset: '' }, RUN)

export const options: Options = {
  scenarios: Object.fromEntries(
    PLAN.filter((r) => canCall(r.who)).map((r) => [
      r.id,
      {
        executor: 'constant-arrival-rate',
        exec: 'call',
        rate: Math.max(1, Math.round(r.rate * SCALE)),
        timeUnit: '1s',
        duration: DURATION,
        preAllocatedVUs: Math.max(2, Math.ceil(r.rate * SCALE * 0.2)),
        maxVUs: Math.max(10, Math.ceil(r.rate * SCALE * 2)),
        env: { ROUTE: r.id },
        tags: { route: r.id },
      },
    ]),
  ),
  // DESIGN.md §7, where it budgets a route; and no more than 1 % of requests failing.
  thresholds: {
    http_req_failed: ['rate<0.01'],
    ...Object.fromEntries(
      PLAN.filter((r) => r.budget && canCall(r.who)).map((r) => [
        `http_req_duration{route:${r.id}}`,
        [`p(${r.budget?.percentile})<${r.budget?.ms}`],
      ]),
    ),
  },
}

const headersFor = (who: Who): Record<string, string> =>
  who === 'visitor' ? {} : { authorization: `Bearer ${TOKENS[who]}` }

/** What the routes need, read from the deployment once. */
export function setup(): EveningFixture {
  const ids = (path: string) =>
    (http.get(`${BASE}${path}`).json() as { id: number }[]).map((item) => item.id)
  const page = http.get(`${BASE}/`).body
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(typeof page === 'string' ? page : '')?.[1]
  const pictures = TOKENS.admin
    ? (http
        .get(`${BASE}/api/tachistoscope/images/list/random`, { headers: headersFor('admin') })
        .json() as { id: string }[])
    : []
  return {
    gestaltIds: ids('/api/gestalts?language=en'),
    perceptionIds: ids('/api/perceptions?language=en'),
    imageIds: pictures.map((p) => p.id),
    asset: asset ?? '/',
  }
}

export function call(fixture: EveningFixture): void {
  const route = eveningRoutes(fixture, RUN).find((r) => r.id === __ENV.ROUTE)
  if (!route) return
  // A deployment without pictures has nothing for the picture route to fetch.
  if (route.id === 'picture' && fixture.imageIds.length === 0) return
  const { path, body } = route.next(exec.scenario.iterationInTest)
  const res = http.request(route.method, `${BASE}${path}`, body ?? null, {
    headers: {
      ...headersFor(route.who),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    tags: { route: route.id },
    ...(route.id === 'speech' || route.id === 'clip' || route.id === 'picture'
      ? { responseType: 'binary' as const }
      : {}),
  })
  check(res, { [`${route.id} 2xx`]: (r) => r.status >= 200 && r.status < 300 })
}
