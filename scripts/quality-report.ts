// Writes docs/quality.md: what each test suite covers, how many tests it ran and passed (from
// the JSON that `npm test` and `npm run test:browser` leave in test-results/), and the latest
// figures of `npm run bench` (bench/report.md). Run by those scripts; by hand:
// `node scripts/quality-report.ts`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const path = (p: string) => root + p

interface VitestJson {
  numTotalTests: number
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  testResults: { name: string; assertionResults: { status: string }[] }[]
}

/** Which files make up each suite, and what it proves. */
const SUITES: {
  name: string
  match: RegExp
  covers: string
  source: 'unit' | 'browser' | 'faults'
}[] = [
  {
    name: 'Service rules',
    match: /\/services\/[^/]+\/test\//,
    covers:
      'every rule of every service against real PostgreSQL (or embedded PGlite) and Redis through `app.inject`: validation, ownership, limits, storage, queues, engines',
    source: 'unit',
  },
  {
    name: 'Platform kit and gateway',
    match: /\/(packages\/kit|gateway)\/test\//,
    covers:
      'contract loading, token checks, error shape, storage drivers (fs, S3 on s3rver), routing, rate limits, security headers, the request log (a proxied success writes nothing at info)',
    source: 'unit',
  },
  {
    name: 'Frontend units',
    match: /\/frontend\/src\//,
    covers:
      'playback scheduler, flash engine, sidereal clock, session and sign-in state (the session marker, the code last sent), toasts, CSV file, plurals',
    source: 'unit',
  },
  {
    name: 'Access matrix',
    match: /\/test\/access-matrix\.test\.ts$/,
    covers:
      'every contract operation as visitor, user and admin on its owning service — allowed means a status the contract declares, below 500, success for a complete GET — and forged tokens refused by every service, with the genuine token as control',
    source: 'unit',
  },
  {
    name: 'Hostile input',
    match: /\/test\/(hostile|redos|client-limits)\.test\.ts$/,
    covers:
      'fast-check requests from the contract against every operation: wrong types, huge strings, unicode edge cases, formula-looking words, missing and extra fields, path traversal, malformed JSON, tampered tokens in every field — no 5xx, always the error shape, nothing stored under a forged subject or outside the rules (each storing service with a positive control); refresh and sign-out with the cookie from another origin refused through the real gateway (oversized, malformed and disguised images and CSV formulas are in the media and descriptors service rules); inputs built to make a pattern backtrack; a client past the limits',
    source: 'unit',
  },
  {
    name: 'Faults under load',
    match: /\/test\/faults\.test\.ts$/,
    covers:
      'while a steady mix of requests runs: a killed service (503 at once, others unaffected, back), a speech worker killed mid-job (its jobs complete), a PostgreSQL restart and a PostgreSQL SIGKILL crash (recovery, no committed write lost), a Redis (AOF) restart (every route of the mix answered throughout), no request hanging; a bounded attacker; a full object store (507, nothing half-written) (`npm run test:faults`; in CI a missing tool fails it)',
    source: 'faults',
  },
  {
    name: 'Launch, deployment and docs',
    match:
      /\/test\/(launcher|deploy|kubernetes|config-docs|operations|admin-cli|custom-words-speech|embedded-postgres|practice-starter-pool)\.test\.ts$/,
    covers:
      "`npm start` (crash and restart of a service, clean stop, data kept), the embedded database, Compose file schema, the Kubernetes manifests (base and production overlay) against the Kubernetes and KEDA schemas with each process's configuration loaded from its pod, every setting documented, every contract operation with a handler and a route, the admin CLI, the practice starter pool",
    source: 'unit',
  },
  {
    name: 'Browser journeys',
    match: /\/test\/browser\//,
    covers:
      'the whole app in Chromium: every route as visitor, user and admin with axe-core checks, every route on a phone (no sideways scroll, 44 px touch targets), sign-in, the trainers, speech, ideogram loop timing, tachistoscope flash timing, sidereal time, practice sessions, administration, keyboard-only use with a visible focus on every control',
    source: 'browser',
  },
]

function load(file: string): VitestJson | undefined {
  if (!existsSync(path(file))) return undefined
  return JSON.parse(readFileSync(path(file), 'utf8')) as VitestJson
}

const results = {
  unit: load('test-results/unit.json'),
  browser: load('test-results/browser.json'),
  faults: load('test-results/faults.json'),
}

function counts(suite: (typeof SUITES)[number]): string {
  const run = results[suite.source]
  if (!run) return 'not run yet'
  const files = run.testResults.filter((f) => suite.match.test(f.name))
  const statuses = files.flatMap((f) => f.assertionResults.map((a) => a.status))
  const passed = statuses.filter((s) => s === 'passed').length
  const failed = statuses.filter((s) => s === 'failed').length
  const skipped = statuses.length - passed - failed
  return `${files.length} files, ${passed} passed${failed ? `, **${failed} failed**` : ''}${skipped ? `, ${skipped} skipped` : ''}`
}

const bench = existsSync(path('bench/report.md'))
  ? readFileSync(path('bench/report.md'), 'utf8').replace(/^# Benchmark report\n/, '')
  : 'No benchmark run yet: `npm run bench`.\n'

const markdown = [
  '# Quality report',
  '',
  'Written by `scripts/quality-report.ts` after `npm test`, `npm run test:faults`, `npm run test:browser`',
  'and `npm run bench`; do not edit by hand. CI (`.ci/run`) runs every suite below on every change.',
  '',
  '## Test suites',
  '',
  '| suite | covers | latest run |',
  '|---|---|---|',
  ...SUITES.map((s) => `| ${s.name} | ${s.covers} | ${counts(s)} |`),
  '',
  '## Figures (`npm run bench`, budgets of DESIGN.md §7)',
  '',
  bench.trim(),
  '',
].join('\n')

writeFileSync(path('docs/quality.md'), markdown)
console.log('quality report: docs/quality.md')
