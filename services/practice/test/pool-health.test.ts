// Issue [24] item 5: a pool's health on /admin/targets, through the real HTTP stack on a real
// database. A fixture pool whose figures are known: its size, the share of each gestalt class
// (a class planted above 30 % is flagged), the mean κ of its targets tagged twice, and the fresh
// sessions its most active viewers have left, the viewers named only by a keyed hash.
import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '@crv/contracts'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import practiceApp from '../src/app.ts'
import { loadPracticeConfig } from '../src/config.ts'
import type { PracticeConfig } from '../src/config.ts'
import {
  classTag,
  GESTALT_CLASSES,
  setsLeft,
  viewerKeyOf,
  viewerPseudonym,
} from '../src/pool-health/pool-health.ts'
import { trialKey } from '../src/sessions/sealing.ts'

type Health = components['schemas']['PracticePoolHealth']

let app: FastifyInstance
let keys: TestKeys
let config: PracticeConfig
let admin: string
beforeAll(async () => {
  const built = await buildTestService(practiceApp, loadPracticeConfig, {
    DATABASE_URL: testDatabaseUrl(),
    ASTRO_URL: 'http://127.0.0.1:9',
  })
  app = built.app
  keys = built.keys
  config = built.config
  admin = await keys.tokenFor('admin')
})
afterAll(() => app.close())

async function health(poolId: string, token = admin) {
  return app.inject({
    method: 'GET',
    url: `/api/admin/practice/pools/${poolId}/health`,
    headers: { authorization: `Bearer ${token}` },
  })
}

async function healthOf(poolId: string): Promise<Health> {
  const res = await health(poolId)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Health
}

async function newPool(): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/practice/pools',
    headers: { authorization: `Bearer ${admin}` },
    payload: { name: `Health ${randomUUID()}` },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

type State = 'active' | 'retired' | 'deleted'

/**
 * Targets straight in the table (the pool's figures need rows, not pictures): each with the
 * tags given, hashed already so that no picture is looked for. Their ids, in order.
 */
async function addTargets(poolId: string, tagSets: string[][], state: State = 'active') {
  const ids: string[] = []
  for (const tags of tagSets) {
    const result = await app.db.execute<{ id: string }>(sql`
      INSERT INTO practice.targets
        (pool_id, title, feedback, tags, licence, image_key, image_sha256, phash, phash_flat,
         retired_at, deleted_at)
      VALUES (${poolId}::uuid, 'A fixture', 'A fixture.', ${sql.param(tags)}::text[], 'own',
              ${`${randomBytes(16).toString('hex')}.jpg`}, ${randomBytes(32).toString('hex')},
              ${'0'.repeat(64)}::bit(64), true,
              ${state === 'retired' ? sql`now()` : sql`NULL`},
              ${state === 'deleted' ? sql`now()` : sql`NULL`})
      RETURNING id`)
    const id = result.rows[0]?.id
    if (!id) throw new Error('no target added')
    ids.push(id)
  }
  return ids
}

/** `count` targets of each class, `[]` for targets of none. */
const ofClasses = (spec: [string | null, number][]) =>
  spec.flatMap(([gestalt, count]) =>
    Array.from({ length: count }, () => (gestalt ? ['tall', `${gestalt}-gestalt`] : ['tall'])),
  )

/** Closed sessions of a viewer in a pool, started `daysAgo` (one per entry), of set size `n`. */
async function addSessions(
  userId: string,
  poolId: string,
  targetId: string,
  daysAgo: number[],
  n: 5 | 10 = 5,
) {
  for (const days of daysAgo) {
    await app.db.execute(sql`
      INSERT INTO practice.sessions
        (user_id, pool_id, target_id, trn, nonce, commitment, candidate_count, started_at,
         abandoned_at, familiarity)
      VALUES (${userId}, ${poolId}::uuid, ${targetId}::uuid, '0000-0000', 'nonce', 'commitment',
              ${n}, now() - make_interval(days => ${days}), now(), 'unseen')`)
  }
}

/** Records that `targetIds` were last shown to the viewer `daysAgo`. */
async function showed(userId: string, targetIds: string[], daysAgo: number) {
  for (const id of targetIds) {
    await app.db.execute(sql`
      INSERT INTO practice.seen (user_id, target_id, last_shown_at)
      VALUES (${userId}, ${id}::uuid, now() - make_interval(days => ${daysAgo}))`)
  }
}

describe('the health of a target pool', () => {
  it('gives the size and each gestalt class’s share of the active targets, flagging one above 30 %', async () => {
    const poolId = await newPool()
    // 20 active targets: 7 man-made (35 %), 4 water, 3 land (one of them natural too), 2
    // biological, 1 space, 1 motion, 2 of no class. Retired and deleted ones do not count.
    const [manMade, alsoManMade = ''] = await addTargets(
      poolId,
      ofClasses([
        ['man-made', 7],
        ['water', 4],
        ['land', 2],
        ['biological', 2],
        ['space', 1],
        ['motion', 1],
        [null, 2],
      ]),
    )
    await addTargets(poolId, [['land-gestalt', 'natural-gestalt', 'rough']])
    const [retired = ''] = await addTargets(poolId, ofClasses([['water', 3]]), 'retired')
    await addTargets(poolId, ofClasses([['water', 2]]), 'deleted')
    // Two active targets tagged by two taggers (κ 0.5 and 0.8), and a retired one, not counted.
    for (const [id, kappa] of [
      [manMade ?? '', 0.5],
      [alsoManMade, 0.8],
      [retired, -1],
    ] as const) {
      await app.db.execute(
        sql`UPDATE practice.targets SET tag_kappa = ${kappa} WHERE id = ${id}::uuid`,
      )
    }

    const report = await healthOf(poolId)
    expect(report).toMatchObject({
      poolId,
      activeTargets: 20,
      classShareLimit: 0.3,
      unclassified: 2,
      tagAgreement: { targets: 2, meanKappa: 0.65 },
      viewers: [],
    })
    expect(report.classes).toEqual([
      { gestalt: 'man-made', targets: 7, share: 0.35, aboveLimit: true },
      { gestalt: 'water', targets: 4, share: 0.2, aboveLimit: false },
      { gestalt: 'land', targets: 3, share: 0.15, aboveLimit: false },
      { gestalt: 'biological', targets: 2, share: 0.1, aboveLimit: false },
      { gestalt: 'motion', targets: 1, share: 0.05, aboveLimit: false },
      { gestalt: 'natural', targets: 1, share: 0.05, aboveLimit: false },
      { gestalt: 'space', targets: 1, share: 0.05, aboveLimit: false },
      { gestalt: 'energy', targets: 0, share: 0, aboveLimit: false },
    ])
  })

  it('flags a class only once it is above 30 %: at 30 % exactly it is not', async () => {
    const poolId = await newPool()
    await addTargets(
      poolId,
      ofClasses([
        ['water', 3],
        ['land', 3],
        ['space', 2],
        ['motion', 2],
      ]),
    )
    const balanced = await healthOf(poolId)
    expect(balanced.tagAgreement).toEqual({ targets: 0, meanKappa: null })
    expect(balanced.classes.filter((c) => c.aboveLimit)).toEqual([])
    expect(balanced.classes[0]).toMatchObject({ gestalt: 'land', share: 0.3 })

    // Planted: two more water targets make water 5 of 12.
    await addTargets(poolId, ofClasses([['water', 2]]))
    const crowded = await healthOf(poolId)
    expect(crowded.classes.filter((c) => c.aboveLimit)).toEqual([
      { gestalt: 'water', targets: 5, share: 0.4167, aboveLimit: true },
    ])
  })

  it('says how many fresh sessions the five most active viewers of the last 90 days have left, never naming them', async () => {
    const poolId = await newPool()
    const other = await newPool()
    const targets = await addTargets(poolId, ofClasses([['water', 20]]))
    const [retired = ''] = await addTargets(poolId, ofClasses([['land', 1]]), 'retired')
    const [elsewhere = ''] = await addTargets(other, ofClasses([['land', 1]]))
    const first = targets[0] ?? ''
    const viewer = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => [k, `viewer-${k}-${randomUUID()}`]),
    )
    const id = (k: string) => viewer[k] ?? ''

    // a: 8 sessions in the window (5 more before it), shown 9 pictures lately and 3 over 180
    // days ago (and a retired one and one of another pool, which do not count): 8 never shown.
    await addSessions(id('a'), poolId, first, [1, 2, 3, 4, 5, 6, 7, 8])
    await addSessions(id('a'), poolId, first, [100, 120, 150, 200, 300])
    await showed(id('a'), targets.slice(0, 9), 10)
    await showed(id('a'), targets.slice(9, 12), 200)
    await showed(id('a'), [retired, elsewhere], 10)
    // b: 6 sessions, the latest at 10 candidates; shown nothing yet.
    await addSessions(id('b'), poolId, first, [20, 30, 40, 50, 60])
    await addSessions(id('b'), poolId, first, [2], 10)
    // c: 6 sessions too, its latest before b's; shown every picture lately.
    await addSessions(id('c'), poolId, first, [3, 30, 40, 50, 60, 70])
    await showed(id('c'), targets, 5)
    // d and e: fewer; f: one session, the sixth most active; g: many, in another pool;
    // h: many, before the window.
    await addSessions(id('d'), poolId, first, [1, 2, 3])
    // d contributed 6 of the pictures (a contributor never gets their own): 14 left to them.
    await app.db.execute(sql`UPDATE practice.targets SET contributed_by = ${id('d')}
                             WHERE id = ANY(${sql.param(targets.slice(14))}::uuid[])`)
    await addSessions(id('e'), poolId, first, [1, 2])
    await addSessions(id('f'), poolId, first, [1])
    await addSessions(id('g'), other, elsewhere, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    await addSessions(id('h'), poolId, first, [91, 92, 93, 94, 95, 96, 97, 98, 99])

    const res = await health(poolId)
    expect(res.statusCode, res.body).toBe(200)
    const report = res.json() as Health
    const key = viewerKeyOf(trialKey(config.PRACTICE_TRIAL_KEY, config.DATA_DIR))
    const pseudonym = (k: string) => viewerPseudonym(key, id(k))
    expect(report.activeTargets).toBe(20)
    expect(report.viewers).toEqual([
      {
        viewer: pseudonym('a'),
        sessions: 8,
        candidateCount: 5,
        unseen: 8,
        rested: 3,
        freshSessions: 1,
        restedSessions: 1,
      },
      {
        viewer: pseudonym('b'),
        sessions: 6,
        candidateCount: 10,
        unseen: 20,
        rested: 0,
        freshSessions: 2,
        restedSessions: 0,
      },
      {
        viewer: pseudonym('c'),
        sessions: 6,
        candidateCount: 5,
        unseen: 0,
        rested: 0,
        freshSessions: 0,
        restedSessions: 0,
      },
      {
        viewer: pseudonym('d'),
        sessions: 3,
        candidateCount: 5,
        unseen: 14,
        rested: 0,
        freshSessions: 2,
        restedSessions: 0,
      },
      {
        viewer: pseudonym('e'),
        sessions: 2,
        candidateCount: 5,
        unseen: 20,
        rested: 0,
        freshSessions: 4,
        restedSessions: 0,
      },
    ])
    // Named by 8 hex digits, the same on every call; no id appears anywhere in the answer.
    for (const v of report.viewers) expect(v.viewer).toMatch(/^[0-9a-f]{8}$/)
    for (const k of Object.keys(viewer)) expect(res.body).not.toContain(id(k))
    expect((await healthOf(poolId)).viewers.map((v) => v.viewer)).toEqual(
      report.viewers.map((v) => v.viewer),
    )
  })

  it('answers 404 for a pool that does not exist, and an empty pool with zeros', async () => {
    expect((await health(randomUUID())).statusCode).toBe(404)
    const empty = await healthOf(await newPool())
    expect(empty).toMatchObject({ activeTargets: 0, unclassified: 0, viewers: [] })
    expect(empty.classes.every((c) => c.targets === 0 && c.share === 0 && !c.aboveLimit)).toBe(true)
  })

  it('is refused to a user who is not an administrator', async () => {
    const res = await health(await newPool(), await keys.tokenFor('user'))
    expect(res.statusCode).toBe(403)
  })
})

describe('the parts of a pool’s health', () => {
  it('counts sets of N from never-shown pictures first, then from those left and the rested', () => {
    expect(setsLeft(8, 3, 5)).toEqual({ freshSessions: 1, restedSessions: 1 })
    expect(setsLeft(4, 0, 5)).toEqual({ freshSessions: 0, restedSessions: 0 })
    expect(setsLeft(4, 1, 5)).toEqual({ freshSessions: 0, restedSessions: 1 })
    expect(setsLeft(25, 14, 10)).toEqual({ freshSessions: 2, restedSessions: 1 })
  })

  it('knows every gestalt class of the vocabulary, and nothing else', () => {
    const csv = readFileSync(join(config.VOCABULARY_DIR, 'vocabulary.en.csv'), 'utf8')
    const ids = csv.split('\n').map((line) => line.split(';')[0] ?? '')
    expect(ids.filter((id) => id.endsWith('-gestalt')).sort()).toEqual(
      GESTALT_CLASSES.map(classTag).sort(),
    )
  })
})
