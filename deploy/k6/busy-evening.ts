// A busy evening on CRV Training, for ops to run against a deployment with k6 (k6 runs
// TypeScript directly): visitors browsing, people training, speech requests, an administrator.
//
//   k6 run -e BASE_URL=https://crv.example -e USER_TOKEN=… -e ADMIN_TOKEN=… deploy/k6/busy-evening.ts
//
// Tokens are access tokens of a test user and a test administrator (sign them in through the
// app; they last 15 minutes). Without tokens the signed-in scenarios are skipped. The same mix
// runs on one machine, through autocannon, in `npm run bench` (bench/scenarios/mixed.ts).
import http from 'k6/http'
import { check, sleep } from 'k6'
import type { Options } from 'k6/options'

const BASE = __ENV.BASE_URL ?? 'http://127.0.0.1:8080'
const USER = __ENV.USER_TOKEN ?? ''
const ADMIN = __ENV.ADMIN_TOKEN ?? ''
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it']

const signedIn = (token: string) => ({
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
})
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T

export const options: Options = {
  scenarios: {
    browsing: {
      executor: 'constant-arrival-rate',
      exec: 'browsing',
      rate: 60,
      timeUnit: '1s',
      duration: '5m',
      preAllocatedVUs: 30,
    },
    training: {
      executor: 'constant-arrival-rate',
      exec: 'training',
      rate: 120,
      timeUnit: '1s',
      duration: '5m',
      preAllocatedVUs: 40,
    },
    speech: {
      executor: 'constant-arrival-rate',
      exec: 'speech',
      rate: 10,
      timeUnit: '1s',
      duration: '5m',
      preAllocatedVUs: 20,
    },
    admin: {
      executor: 'constant-vus',
      exec: 'admin',
      vus: 1,
      duration: '5m',
    },
  },
  // DESIGN.md §7: trainer calls p99 ≤ 50 ms (bulk) and ≤ 20 ms (random); speech cached ≤ 10 ms.
  thresholds: {
    'http_req_duration{scenario:browsing}': ['p(99)<50'],
    'http_req_duration{scenario:training}': ['p(99)<50'],
    'http_req_duration{name:random}': ['p(99)<20'],
    http_req_failed: ['rate<0.01'],
  },
}

export function browsing(): void {
  const page = http.get(`${BASE}/`)
  check(page, { 'page 200': (r) => r.status === 200 })
  const language = pick(LANGUAGES)
  http.get(`${BASE}/api/gestalts?language=${language}`, { tags: { name: 'gestalts' } })
  const bulk = http.get(`${BASE}/api/descriptors/bulk?language=${language}`, {
    tags: { name: 'bulk' },
  })
  check(bulk, { 'bulk 200': (r) => r.status === 200 })
  http.get(`${BASE}/api/sidereal-time/auto?lat=52.52&lng=13.405`, { tags: { name: 'sidereal' } })
}

let categories: number[] = []

export function training(): void {
  const language = pick(LANGUAGES)
  if (categories.length === 0) {
    const res = http.get(`${BASE}/api/gestalts?language=en`)
    categories = (res.json() as { id: number }[]).map((g) => g.id)
  }
  const res = http.post(
    `${BASE}/api/descriptors/random`,
    JSON.stringify({
      gestaltIds: categories,
      perceptionIds: [],
      stages: ['Stage 1-2'],
      language,
    }),
    {
      ...(USER ? signedIn(USER) : { headers: { 'content-type': 'application/json' } }),
      tags: { name: 'random' },
    },
  )
  check(res, { 'random 200': (r) => r.status === 200 })
  if (USER && Math.random() < 0.2) {
    http.get(`${BASE}/api/descriptors/bulk?language=${language}`, {
      ...signedIn(USER),
      tags: { name: 'bulk signed in' },
    })
  }
}

const WORDS = ['water', 'mountain', 'bridge', 'warm', 'rough', 'bright', 'tower', 'wave']

export function speech(): void {
  if (!USER) return
  const res = http.post(
    `${BASE}/api/ai/speech`,
    JSON.stringify({ word: pick(WORDS), language: 'en' }),
    { ...signedIn(USER), tags: { name: 'speech' }, responseType: 'binary' },
  )
  check(res, { 'speech 200 or busy': (r) => r.status === 200 || r.status === 503 })
}

export function admin(): void {
  if (!ADMIN) {
    sleep(5)
    return
  }
  http.get(`${BASE}/api/admin/pending-descriptors`, { ...signedIn(ADMIN), tags: { name: 'admin' } })
  http.get(`${BASE}/api/admin/descriptors?page=1&limit=50&search=wa`, {
    ...signedIn(ADMIN),
    tags: { name: 'admin' },
  })
  sleep(2)
}
