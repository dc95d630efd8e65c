// The traffic of a busy evening on CRV Training, route by route: what deploy/k6/busy-evening.ts
// sends to a deployment with k6 and what `npm run bench` sends to the whole app on one machine
// with open-loop arrivals (bench/scenarios/mixed.ts). Plain TypeScript with no imports, so that both
// k6 and Node load it.

export type Who = 'visitor' | 'user' | 'admin'

/** What the routes need to know of the running app, read once before the load starts. */
export interface EveningFixture {
  gestaltIds: number[]
  perceptionIds: number[]
  /** Ids of tachistoscope pictures (category `random`). */
  imageIds: string[]
  /** The path of the app page's main script (`/assets/…`). */
  asset: string
}

export interface EveningRoute {
  /** Short and tag-safe: a k6 scenario name and threshold tag. */
  id: string
  /** As the report prints it. */
  name: string
  /** The group of the evening it belongs to. */
  scenario: 'browsing' | 'training' | 'speech' | 'admin'
  who: Who
  /** Requests per second at the base rate. */
  rate: number
  method: 'GET' | 'POST'
  /** The n-th request's path and body; languages, words and places vary as in real use. */
  next: (n: number) => { path: string; body?: string }
  /** DESIGN.md §7's budget for the route, where it sets one. */
  budget?: { text: string; percentile: 50 | 99; ms: number }
}

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const
/** Words the speech route asks for; said once before the load, so they come from the cache. */
export const SPOKEN_WORDS = [
  'water',
  'mountain',
  'bridge',
  'warm',
  'rough',
  'bright',
  'tower',
  'wave',
]
const CLIPS = ['biological', 'energy', 'land', 'man', 'motion', 'natural', 'space']
const CITIES = ['Berlin', 'São Paulo', 'Paris, TX', 'Tokyo', 'nairobi']
const PAGES = ['/', '/descriptors', '/sidereal-time']
const SEARCHES = ['wa', 'ber', 'sto', 'lum']

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T
const json = (path: string, body: unknown) => ({ path, body: JSON.stringify(body) })
/** A GET of one fixed path, named as the report prints it. */
const get = (path: string) => ({
  name: `\`GET ${path}\``,
  method: 'GET' as const,
  next: () => ({ path }),
})

/** The routes of one group of the evening, all called by the same kind of caller. */
function group(
  scenario: EveningRoute['scenario'],
  who: Who,
  routes: Omit<EveningRoute, 'scenario' | 'who'>[],
): EveningRoute[] {
  return routes.map(({ id, name, ...rest }) => ({ id, name, scenario, who, ...rest }))
}

/** Every route of the evening; `run` keeps the custom words of one run apart from another's. */
export function eveningRoutes(f: EveningFixture, run: string): EveningRoute[] {
  return [
    // Visitors: the page, its script, the lists behind the trainers, clips, sidereal time.
    ...group('browsing', 'visitor', [
      {
        id: 'page',
        name: '`GET /` (the app page)',
        rate: 10,
        method: 'GET',
        next: () => ({ path: '/' }),
      },
      {
        id: 'asset',
        name: '`GET /assets/…` (the main script)',
        rate: 5,
        method: 'GET',
        next: () => ({ path: f.asset }),
      },
      {
        id: 'gestalts',
        name: '`GET /api/gestalts`',
        rate: 10,
        method: 'GET',
        next: (n) => ({ path: `/api/gestalts?language=${pick(LANGUAGES, n)}` }),
      },
      {
        id: 'perceptions',
        name: '`GET /api/perceptions`',
        rate: 5,
        method: 'GET',
        next: (n) => ({ path: `/api/perceptions?language=${pick(LANGUAGES, n)}` }),
      },
      {
        id: 'bulk_visitor',
        name: '`GET /api/descriptors/bulk` visitor',
        rate: 20,
        method: 'GET',
        next: (n) => ({ path: `/api/descriptors/bulk?language=${pick(LANGUAGES, n)}` }),
        budget: { text: 'p99 ≤ 50 ms', percentile: 99, ms: 50 },
      },
      {
        id: 'clip',
        name: '`GET /api/audio/{gestaltId}`',
        rate: 10,
        method: 'GET',
        next: (n) => ({ path: `/api/audio/${pick(CLIPS, n)}` }),
      },
      {
        id: 'sidereal_auto',
        name: '`GET /api/sidereal-time/auto`',
        rate: 5,
        method: 'GET',
        next: (n) => ({
          path: `/api/sidereal-time/auto?lat=${(n % 120) - 60}&lng=${(n % 340) - 170}`,
        }),
      },
      {
        id: 'sidereal_city',
        name: '`POST /api/sidereal-time/custom` (a city)',
        rate: 2,
        method: 'POST',
        next: (n) => json('/api/sidereal-time/custom', { location: pick(CITIES, n) }),
      },
      {
        id: 'events',
        name: '`POST /api/events` (page views)',
        rate: 5,
        method: 'POST',
        next: (n) => json('/api/events', { events: [{ name: 'page_view', path: pick(PAGES, n) }] }),
      },
    ]),
    // Signed-in training: a word every few seconds per person, the lists, an added word.
    ...group('training', 'user', [
      {
        id: 'random',
        name: '`POST /api/descriptors/random` signed in',
        rate: 100,
        method: 'POST',
        next: (n) =>
          json('/api/descriptors/random', {
            gestaltIds: f.gestaltIds,
            perceptionIds: n % 3 === 0 ? f.perceptionIds : [],
            stages: ['Stage 1-2', 'Stage 2-3'],
            language: pick(LANGUAGES, n),
          }),
        budget: { text: 'p99 ≤ 20 ms', percentile: 99, ms: 20 },
      },
      {
        id: 'bulk_user',
        name: '`GET /api/descriptors/bulk` signed in',
        rate: 20,
        method: 'GET',
        next: (n) => ({ path: `/api/descriptors/bulk?language=${pick(LANGUAGES, n)}` }),
        budget: { text: 'p99 ≤ 50 ms', percentile: 99, ms: 50 },
      },
      { id: 'own_words', rate: 5, ...get('/api/user/descriptors') },
      {
        id: 'add_word',
        name: '`POST /api/descriptors` (a custom word)',
        rate: 1,
        method: 'POST',
        next: (n) =>
          json('/api/descriptors', {
            word: `evening ${run} ${n}`,
            language: pick(LANGUAGES, n),
            gestaltId: pick(f.gestaltIds, n),
          }),
      },
      { id: 'me', rate: 5, ...get('/api/auth/me') },
    ]),
    // Speech: pronunciations of words already said, the custom gestalts' list.
    ...group('speech', 'user', [
      {
        id: 'speech',
        name: '`POST /api/ai/speech` (cached words)',
        rate: 10,
        method: 'POST',
        next: (n) =>
          json('/api/ai/speech', {
            word: pick(SPOKEN_WORDS, n),
            language: pick(LANGUAGES, Math.floor(n / SPOKEN_WORDS.length)),
          }),
        budget: { text: 'cached ≤ 10 ms (p50)', percentile: 50, ms: 10 },
      },
      { id: 'custom_words', rate: 2, ...get('/api/custom-words') },
    ]),
    // An administrator moderating and running the tachistoscope.
    ...group('admin', 'admin', [
      { id: 'pending', rate: 1, ...get('/api/admin/pending-descriptors') },
      {
        id: 'admin_search',
        name: '`GET /api/admin/descriptors` (search)',
        rate: 1,
        method: 'GET',
        next: (n) => ({
          path: `/api/admin/descriptors?page=1&limit=50&search=${pick(SEARCHES, n)}`,
        }),
      },
      { id: 'admin_stats', rate: 1, ...get('/api/admin/stats') },
      { id: 'pictures', rate: 2, ...get('/api/tachistoscope/images/random') },
      {
        id: 'picture',
        name: '`GET /api/tachistoscope/files/{id}`',
        rate: 2,
        method: 'GET',
        next: (n) => ({ path: `/api/tachistoscope/files/${pick(f.imageIds, n)}` }),
      },
    ]),
  ]
}
