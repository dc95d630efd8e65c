// The rule every practice session keeps: given everything a client can know, every candidate is
// equally likely to be the target. Checked here through the real service (HTTP stack, PostgreSQL)
// by a judge with no remote-viewing ability that uses everything a client can see: its whole
// history (former targets, how often each picture was a candidate), the hint, the public starter
// manifest (each picture's hint and tags, found by the hash of its bytes), and the order shown.
// Over thousands of sessions its first places must stay within 1/N ± 3σ. Planted faults (the
// draws the app used to make) must each push it out of that band, or the check proves nothing.
import { createHash, randomInt, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import practiceApp from '../src/app.ts'
import { targetsOf } from '../src/sessions/candidate-sets.ts'
import type { CandidateDraw, DrawableTarget } from '../src/sessions/candidate-sets.ts'
import { loadPracticeConfig } from '../src/config.ts'
import { shuffled } from '../src/sessions/sealing.ts'
import type { StarterManifest } from '../src/seed.ts'

const starterDir = fileURLToPath(new URL('../starter-pool/', import.meta.url))
const manifest = JSON.parse(readFileSync(`${starterDir}manifest.json`, 'utf8')) as StarterManifest
/** The public manifest, by the SHA-256 of each picture's bytes (what a client can compute). */
const known = new Map(
  manifest.targets.map((t) => [
    createHash('sha256')
      .update(readFileSync(`${starterDir}${t.file}`))
      .digest('hex'),
    t,
  ]),
)

const apps: FastifyInstance[] = []
afterAll(() => Promise.all(apps.map((a) => a.close())))

async function service(draw?: CandidateDraw): Promise<{ app: FastifyInstance; keys: TestKeys }> {
  const built = await buildTestService(
    async (app, options) => {
      await app.register(practiceApp, { ...options, ...(draw ? { draw } : {}) })
    },
    loadPracticeConfig,
    { DATABASE_URL: testDatabaseUrl(), ASTRO_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' },
  )
  apps.push(built.app)
  return built
}

interface Candidate {
  id: string
  imageSha256: string
  tags: string[]
}

/** What one viewer's client has seen so far. */
class ViewerMemory {
  readonly formerTargets = new Set<string>()
  readonly timesShown = new Map<string, number>()

  /** Best first: what looks most like a target given everything seen, ties at random. */
  rank(candidates: Candidate[], hint: string | null): string[] {
    const score = (c: Candidate) => {
      const public_ = known.get(c.imageSha256)
      let s = 0
      if (this.formerTargets.has(c.id)) s -= 100
      if (hint !== null && public_?.frontloading === hint) s += 10
      if (hint === null && !public_?.frontloading) s += 1
      s -= 0.1 * (this.timesShown.get(c.id) ?? 0)
      return s
    }
    return shuffled(candidates)
      .map((c) => ({ id: c.id, s: score(c) }))
      .sort((a, b) => b.s - a.s)
      .map((c) => c.id)
  }

  remember(candidates: Candidate[], targetId: string) {
    this.formerTargets.add(targetId)
    for (const c of candidates) this.timesShown.set(c.id, (this.timesShown.get(c.id) ?? 0) + 1)
  }
}

interface Tally {
  sessions: number
  firsts: number
}

/**
 * One viewer's sessions on the starter pool until the simulation has its sessions: the pool is
 * never exhausted (sets come from the pictures shown longest ago once all were shown), so each
 * viewer meets former targets again. A planted draw may still refuse (409), ending the viewer.
 */
async function viewer(
  app: FastifyInstance,
  keys: TestKeys,
  candidates: 5 | 10,
  tally: Tally,
  sessions: number,
) {
  const token = await keys.tokenFor('user', `adversary-${randomUUID()}`)
  const headers = { authorization: `Bearer ${token}` }
  const memory = new ViewerMemory()
  while (tally.sessions < sessions) {
    const started = await app.inject({
      method: 'POST',
      url: '/api/practice/sessions',
      headers,
      payload: { candidates },
    })
    if (started.statusCode === 409 && started.json().error.code === 'pool_exhausted') return
    expect(started.statusCode, started.body).toBe(201)
    const session = started.json() as { id: string; frontloading: string | null }
    const locked = await app.inject({
      method: 'POST',
      url: `/api/practice/sessions/${session.id}/lock`,
      headers,
    })
    const shown = (locked.json() as { candidates: Candidate[] }).candidates
    const ranking = memory.rank(shown, session.frontloading)
    const judged = await app.inject({
      method: 'POST',
      url: `/api/practice/sessions/${session.id}/judge`,
      headers,
      payload: { ranking },
    })
    expect(judged.statusCode, judged.body).toBe(200)
    const { targetId, rank } = judged.json() as { targetId: string; rank: number }
    memory.remember(shown, targetId)
    tally.sessions += 1
    if (rank === 1) tally.firsts += 1
  }
}

/** Runs `sessions` sessions, several viewers at a time, each until its pool runs out. */
async function simulate(candidates: 5 | 10, sessions: number, draw?: CandidateDraw) {
  const { app, keys } = await service(draw)
  const tally: Tally = { sessions: 0, firsts: 0 }
  // Each worker runs viewers one after another until the simulation has its sessions.
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (tally.sessions < sessions) await viewer(app, keys, candidates, tally, sessions)
    }),
  )
  return tally
}

/** Is the hit rate within 1/N ± 3σ? */
function withinChance({ sessions, firsts }: Tally, candidates: number) {
  const p = 1 / candidates
  const sigma = Math.sqrt((p * (1 - p)) / sessions)
  const rate = firsts / sessions
  const verdict = {
    sessions,
    firsts,
    rate,
    low: p - 3 * sigma,
    high: p + 3 * sigma,
    ok: Math.abs(rate - p) <= 3 * sigma,
  }
  // The figures, for the note: PRACTICE_SIMULATION_REPORT=1 npx vitest run <this file>
  if (process.env.PRACTICE_SIMULATION_REPORT) console.info(`N=${candidates}`, verdict)
  return verdict
}

/** The old draw: the target from the pictures never shown, decoys from every target. */
const decoysFromAllTargets: CandidateDraw = (drawable, size) => {
  const pool = targetsOf(drawable)
  const fresh = pool.filter((t) => t.lastShownAt === null)
  if (fresh.length === 0 || pool.length < size) return null
  const target = fresh[randomInt(0, fresh.length)] as DrawableTarget
  const decoys = shuffled(pool.filter((t) => t.id !== target.id)).slice(0, size - 1)
  return {
    candidates: shuffled([target, ...decoys]).map((t) => t.id),
    targetId: target.id,
    frontloading: null,
  }
}

/** The old hint: the target's own, while the decoys ignore it. */
const hintFromTheTargetOnly: CandidateDraw = (drawable, size) => {
  const pool = targetsOf(drawable)
  const fresh = pool.filter((t) => t.lastShownAt === null)
  if (fresh.length < size) return null
  const [target, ...decoys] = shuffled(fresh).slice(0, size) as [
    DrawableTarget,
    ...DrawableTarget[],
  ]
  return {
    candidates: shuffled([target, ...decoys]).map((t) => t.id),
    targetId: target.id,
    frontloading: target.frontloading,
  }
}

// CI runs the suite twice, on the machine's PostgreSQL and on the embedded database; this
// simulation (11,000 sessions, two and a half minutes) checks the draw, which is the same on
// both, so the second pass leaves it out (CRV_SIMULATIONS=once-done). Everywhere else it runs.
describe.skipIf(process.env.CRV_SIMULATIONS === 'once-done')(
  'an adversarial judge with no remote-viewing ability',
  () => {
    // 5,000 sessions at each N: σ of the hit rate is 0.0057 at N = 5 and 0.0042 at N = 10.
    for (const candidates of [5, 10] as const) {
      it(
        `scores first places at chance over 5,000 sessions with ${candidates} candidates`,
        {
          timeout: 600_000,
        },
        async () => {
          let verdict = withinChance(await simulate(candidates, 5_000), candidates)
          // Chance itself lands outside 1/N ± 3σ in 0.27 % of runs (seen once here: 18.30 % at
          // N = 5 against a band from 18.30 %). Such a result is checked once more on 5,000 fresh
          // sessions: a leak stays outside (the planted draws sit 8σ and more away), while chance
          // falls outside twice in a row with probability 7 × 10⁻⁶.
          if (!verdict.ok) verdict = withinChance(await simulate(candidates, 5_000), candidates)
          expect(verdict.sessions).toBeGreaterThanOrEqual(5_000)
          expect(verdict, JSON.stringify(verdict)).toMatchObject({ ok: true })
        },
      )
    }

    // The planted faults: fewer sessions are enough, as each gives the judge a large edge.
    it(
      'scores above chance when decoys come from every target again (planted fault)',
      {
        timeout: 300_000,
      },
      async () => {
        const verdict = withinChance(await simulate(5, 600, decoysFromAllTargets), 5)
        expect(verdict.rate, JSON.stringify(verdict)).toBeGreaterThan(verdict.high)
      },
    )

    it(
      'scores above chance when the hint is the target’s alone (planted fault)',
      {
        timeout: 300_000,
      },
      async () => {
        const verdict = withinChance(await simulate(5, 600, hintFromTheTargetOnly), 5)
        expect(verdict.rate, JSON.stringify(verdict)).toBeGreaterThan(verdict.high)
      },
    )
  },
)
