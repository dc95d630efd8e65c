import { createHash, randomUUID } from 'node:crypto'
import sharp from 'sharp'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalJson } from '@crv/contracts/practice-receipt'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import practiceApp from '../src/app.ts'
import { loadPracticeConfig } from '../src/config.ts'

let app: FastifyInstance
let keys: TestKeys
beforeAll(async () => {
  const built = await buildTestService(practiceApp, loadPracticeConfig, {
    DATABASE_URL: testDatabaseUrl(),
    // No astro service here: the sidereal time of a position is unknown, not an error.
    ASTRO_URL: 'http://127.0.0.1:9',
  })
  app = built.app
  keys = built.keys
})
afterAll(() => app.close())

const sha = (x: string | Buffer) => createHash('sha256').update(x).digest('hex')
const userToken = () => keys.tokenFor('user', `practice-${randomUUID()}`)

function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  token: string | null,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  })
}

interface Started {
  id: string
  trn: string
  commitment: string
}

async function start(token: string, body: object = {}): Promise<Started> {
  const res = await call('POST', '/api/practice/sessions', token, body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as Started
}

const picture = (hue: number) =>
  sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: hue, g: 255 - hue, b: 90 } },
  })
    .jpeg()
    .toBuffer()

/** A pool of its own with `count` targets, made through the admin API. */
async function poolWith(count: number, tags = ['cold', 'rough', 'tall']): Promise<string> {
  const admin = await keys.tokenFor('admin')
  const pool = await call('POST', '/api/admin/practice/pools', admin, {
    name: `Pool ${randomUUID()}`,
  })
  expect(pool.statusCode, pool.body).toBe(201)
  const poolId = (pool.json() as { id: string }).id
  const targets = await Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      image: `data:image/jpeg;base64,${(await picture((i * 40) % 256)).toString('base64')}`,
      fileName: `t${i}.jpg`,
      title: `Target ${i}`,
      feedback: `A test target number ${i}.`,
      tags,
      licence: 'own',
      source: 'made by the test',
    })),
  )
  // The admin call takes at most 50 targets at a time.
  for (let from = 0; from < count; from += 50) {
    const batch = targets.slice(from, from + 50)
    const created = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: batch,
    })
    expect(created.statusCode, created.body).toBe(200)
    expect((created.json() as { created: unknown[] }).created).toHaveLength(batch.length)
  }
  return poolId
}

describe('a practice session', () => {
  it('runs start → write-up → lock → judge, and the commitment verifies against the served image', async () => {
    const token = await userToken()
    const s = await start(token)
    expect(s.trn).toMatch(/^\d{4}-\d{4}$/)
    expect(s.commitment).toMatch(/^[0-9a-f]{64}$/)

    const saved = await call('PUT', `/api/practice/sessions/${s.id}`, token, {
      writeUp: { language: 'de', stage2: { temperatures: ['kalt'], textures: ['rau'] } },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toMatchObject({ revision: 1 })

    const locked = await call('POST', `/api/practice/sessions/${s.id}/lock`, token)
    expect(locked.statusCode, locked.body).toBe(200)
    const { candidates, writeUpSha256 } = locked.json() as {
      candidates: { id: string; imageUrl: string }[]
      writeUpSha256: string
    }
    expect(candidates).toHaveLength(5)
    expect(new Set(candidates.map((c) => c.id)).size).toBe(5)
    // Locking again shows the same candidates.
    const again = await call('POST', `/api/practice/sessions/${s.id}/lock`, token)
    expect((again.json() as { candidates: { id: string }[] }).candidates).toEqual(candidates)

    const ranking = candidates.map((c) => c.id).reverse()
    const judged = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, { ranking })
    expect(judged.statusCode, judged.body).toBe(200)
    const reveal = judged.json() as {
      targetId: string
      imageSha256: string
      nonce: string
      rank: number
      writeUpSha256: string
      score: { described: string[] }
    }
    expect(reveal.rank).toBe(ranking.indexOf(reveal.targetId) + 1)
    expect(reveal.writeUpSha256).toBe(writeUpSha256)
    // German words are scored as the vocabulary's concepts.
    expect(reveal.score.described).toEqual(expect.arrayContaining(['cold', 'rough']))

    const target = candidates.find((c) => c.id === reveal.targetId)
    expect(target).toBeDefined()
    const image = await call('GET', target?.imageUrl ?? '', token)
    expect(image.statusCode).toBe(200)
    expect(sha(image.rawPayload)).toBe(reveal.imageSha256)
    expect(sha(`${reveal.targetId}|${reveal.imageSha256}|${reveal.nonce}`)).toBe(s.commitment)

    const view = await call('GET', `/api/practice/sessions/${s.id}`, token)
    expect(view.json()).toMatchObject({ status: 'judged', reveal: { targetId: reveal.targetId } })
  })

  it('refuses writing after the lock, judging before it, judging twice and a partial ranking', async () => {
    const token = await userToken()
    const s = await start(token)
    const early = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
      ranking: [],
    })
    expect(early.statusCode).toBe(409)
    const locked = await call('POST', `/api/practice/sessions/${s.id}/lock`, token)
    const ids = (locked.json() as { candidates: { id: string }[] }).candidates.map((c) => c.id)
    const late = await call('PUT', `/api/practice/sessions/${s.id}`, token, {
      writeUp: { summary: 'changed after the lock' },
    })
    expect(late.statusCode).toBe(409)
    expect(late.json().error.code).toBe('session_locked')
    for (const ranking of [
      ids.slice(1),
      [...ids.slice(1), ids[1]],
      [...ids.slice(1), randomUUID()],
    ]) {
      const bad = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, { ranking })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().error.code).toBe('invalid_ranking')
    }
    expect(
      (await call('POST', `/api/practice/sessions/${s.id}/judge`, token, { ranking: ids }))
        .statusCode,
    ).toBe(200)
    const twice = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
      ranking: ids,
    })
    expect(twice.statusCode).toBe(409)
  })

  it('keeps two devices from overwriting each other with the revision', async () => {
    const token = await userToken()
    const s = await start(token)
    const laptop = await call('PUT', `/api/practice/sessions/${s.id}`, token, {
      writeUp: { summary: 'from the laptop' },
      revision: 0,
    })
    expect(laptop.statusCode).toBe(200)
    const phone = await call('PUT', `/api/practice/sessions/${s.id}`, token, {
      writeUp: { summary: 'from the phone, written before the laptop saved' },
      revision: 0,
    })
    expect(phone.statusCode).toBe(409)
    expect(phone.json().error).toMatchObject({ code: 'stale_write_up', details: { revision: 1 } })
    const view = await call('GET', `/api/practice/sessions/${s.id}`, token)
    expect(view.json()).toMatchObject({ revision: 1, writeUp: { summary: 'from the laptop' } })
  })

  it('seals the write-up as stored when saves race the lock', async () => {
    const token = await userToken()
    const s = await start(token)
    const url = `/api/practice/sessions/${s.id}`
    // Saves and locks at once: each save lands before the lock or is refused after it, and
    // every lock answers the one hash of what is stored.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 8 === 5
          ? call('POST', `${url}/lock`, token)
          : call('PUT', url, token, {
              writeUp: { summary: `draft ${i}`, stage2: { colours: ['grey'] } },
            }),
      ),
    )
    const locks = answers.filter((_, i) => i % 8 === 5)
    const saves = answers.filter((_, i) => i % 8 !== 5)
    for (const save of saves) {
      if (save.statusCode !== 200) expect(save.json().error.code).toBe('session_locked')
    }
    const view = (await call('GET', url, token)).json() as {
      writeUp: Record<string, unknown>
      revision: number
    }
    expect(view.revision).toBe(saves.filter((r) => r.statusCode === 200).length)
    const sealed = sha(canonicalJson(view.writeUp))
    for (const lock of locks) {
      expect(lock.statusCode, lock.body).toBe(200)
      expect(lock.json().writeUpSha256).toBe(sealed)
    }
  })

  it('refuses drawings past the point cap with 413', async () => {
    const token = await userToken()
    const s = await start(token)
    // Within the body limit (256 KiB), past the cap of 20,000 points.
    const stroke = Array.from({ length: 4200 }, () => [0, 0, 0, 0])
    const res = await call('PUT', `/api/practice/sessions/${s.id}`, token, {
      writeUp: { stage3: { sketch: { strokes: Array.from({ length: 5 }, () => stroke) } } },
    })
    expect(res.statusCode).toBe(413)
    expect(res.json().error.code).toBe('drawing_too_large')
  })

  it('keeps a viewer practising past the whole pool, each set from the pictures shown longest ago', async () => {
    // 500 sessions on 60 targets: every picture is shown within the first dozen sessions, then
    // sets come from the half of the pool shown longest ago, so none repeats the last set.
    const poolId = await poolWith(60)
    const token = await userToken()
    const familiarities = new Map<string, number>()
    const targets = new Set<string>()
    let previous = new Set<string>()
    for (let i = 0; i < 500; i++) {
      const res = await call('POST', '/api/practice/sessions', token, { poolId })
      expect(res.statusCode, `session ${i}: ${res.body}`).toBe(201)
      const s = res.json() as {
        id: string
        picturesSeen: { familiarity: string; lastShownAt: string | null }
      }
      const { familiarity, lastShownAt } = s.picturesSeen
      familiarities.set(familiarity, (familiarities.get(familiarity) ?? 0) + 1)
      expect(lastShownAt === null, `session ${i}`).toBe(familiarity === 'unseen')
      if (i < 12) expect(familiarity).toBe('unseen')
      const locked = await call('POST', `/api/practice/sessions/${s.id}/lock`, token)
      const ids = (locked.json() as { candidates: { id: string }[] }).candidates.map((c) => c.id)
      expect(
        ids.filter((id) => previous.has(id)),
        `session ${i}`,
      ).toEqual([])
      previous = new Set(ids)
      const judged = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
        ranking: ids,
      })
      expect(judged.statusCode, judged.body).toBe(200)
      targets.add((judged.json() as { targetId: string }).targetId)
    }
    expect(familiarities.get('unseen')).toBe(12)
    expect(familiarities.get('recent')).toBe(488)
    // Former targets come again (each of the 60 is the target about 8 times in 500).
    expect(targets.size).toBeGreaterThan(50)
    const stats = (q: string) => call('GET', `/api/practice/stats${q}`, token)
    expect((await stats('?familiarity=unseen')).json()).toMatchObject({ sessions: 12 })
    expect((await stats('?familiarity=recent')).json()).toMatchObject({ sessions: 488 })
    expect((await stats('')).json()).toMatchObject({ sessions: 500 })
    const bad = await stats('?familiarity=often')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBeTypeOf('string')
    // 2,000 requests: 8 s on a quiet machine, 25-30 s on a busy one (the default is 30 s).
  }, 120_000)
})

describe('the vocabulary', () => {
  it('names concepts by id in the language asked for, in the order asked, unknown ids left out', async () => {
    const res = await call(
      'GET',
      '/api/practice/concepts?ids=cold,no-such-concept,rough&language=de',
      null,
    )
    expect(res.statusCode, res.body).toBe(200)
    const concepts = res.json() as { conceptId: string; word: string }[]
    expect(concepts.map((c) => c.conceptId)).toEqual(['cold', 'rough'])
    expect(concepts[0]?.word).toBe('kalt')
    const bad = await call('GET', '/api/practice/concepts?ids=Cold;drop', null)
    expect(bad.statusCode).toBe(400)
  })
})

describe('the sealed target', () => {
  it('is named by no practice route, for the owner, another user or an administrator, before the lock', async () => {
    const owner = await userToken()
    const other = await userToken()
    const admin = await keys.tokenFor('admin')
    // A pool of its own, so other tests' sessions do not change what the administrator sees.
    const poolId = await poolWith(5)
    const adminView = async () =>
      (await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)).json() as {
        id: string
        sessions: number
      }[]
    const before = new Map((await adminView()).map((t) => [t.id, t.sessions]))
    const s = await start(owner, { poolId })
    // Every target of the pool is in the set: each one's use count rises alike.
    const after = await adminView()
    expect(after.map((t) => t.sessions - (before.get(t.id) ?? 0))).toEqual([1, 1, 1, 1, 1])
    // What would give the target away: its id, its image key and its feedback.
    const secret = (
      await app.pg.query<{ target_id: string; image_key: string; feedback: string }>(
        `SELECT s.target_id, t.image_key, t.feedback FROM practice.sessions s
       JOIN practice.targets t ON t.id = s.target_id WHERE s.id = $1`,
        [s.id],
      )
    ).rows[0]
    expect(secret).toBeDefined()
    const leaks = (res: LightMyRequestResponse) =>
      [secret?.target_id, secret?.image_key, secret?.feedback].filter(
        (x): x is string => !!x && res.body.includes(x),
      )
    const calls: [string, 'GET' | 'POST' | 'PUT', string, object?][] = [
      ['session', 'GET', `/api/practice/sessions/${s.id}`],
      ['list', 'GET', '/api/practice/sessions'],
      ['stats', 'GET', '/api/practice/stats'],
      ['export json', 'GET', '/api/practice/export?format=json'],
      ['export csv', 'GET', '/api/practice/export?format=csv'],
      ['save', 'PUT', `/api/practice/sessions/${s.id}`, { writeUp: { summary: 'x' } }],
      ['judge', 'POST', `/api/practice/sessions/${s.id}/judge`, { ranking: [] }],
    ]
    for (const token of [owner, other, admin]) {
      for (const [name, method, url, body] of calls) {
        const res = await call(method, url, token, body)
        expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBeLessThan(500)
        expect(leaks(res), name).toEqual([])
      }
    }
  })

  it("is another user's session's: reading, saving, locking and judging it answer 404", async () => {
    const owner = await userToken()
    const other = await userToken()
    const admin = await keys.tokenFor('admin')
    const s = await start(owner)
    for (const token of [other, admin]) {
      expect((await call('GET', `/api/practice/sessions/${s.id}`, token)).statusCode).toBe(404)
      expect(
        (await call('PUT', `/api/practice/sessions/${s.id}`, token, { writeUp: {} })).statusCode,
      ).toBe(404)
      expect((await call('POST', `/api/practice/sessions/${s.id}/lock`, token)).statusCode).toBe(
        404,
      )
    }
    expect((await call('POST', '/api/practice/sessions', null)).statusCode).toBe(401)
  })
})

describe('statistics', () => {
  it('counts judged sessions with the sum-of-ranks z and the exact hit probability', async () => {
    const poolId = await poolWith(8)
    const token = await userToken()
    const ranks: number[] = []
    for (let i = 0; i < 3; i++) {
      const s = await start(token, { poolId })
      const locked = await call('POST', `/api/practice/sessions/${s.id}/lock`, token)
      const ids = (locked.json() as { candidates: { id: string }[] }).candidates.map((c) => c.id)
      const judged = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
        ranking: ids,
      })
      ranks.push((judged.json() as { rank: number }).rank)
    }
    await start(token, { poolId })
    const stats = (await call('GET', '/api/practice/stats', token)).json() as Record<
      string,
      unknown
    >
    const sum = ranks.reduce((a, b) => a + b, 0)
    expect(stats).toMatchObject({
      sessions: 4,
      judged: 3,
      sumOfRanks: sum,
      expectedSumOfRanks: 9,
      significanceShown: false,
    })
    expect(stats.z).toBeCloseTo((9 - sum) / Math.sqrt((3 * 24) / 12), 3)
    expect((stats.history as unknown[]).length).toBe(4)

    // The export carries the same statistics and every session; the CSV a row per session.
    const json = await call('GET', '/api/practice/export?format=json', token)
    expect(json.statusCode).toBe(200)
    expect(json.headers['content-disposition']).toMatch(/attachment; filename="crv-practice-/)
    const exported = json.json() as { statistics: { judged: number }; sessions: unknown[] }
    expect(exported.statistics.judged).toBe(3)
    expect(exported.sessions).toHaveLength(4)
    const csv = await call('GET', '/api/practice/export?format=csv', token)
    expect(csv.headers['content-type']).toMatch(/text\/csv/)
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toMatch(
      /^trn;started_at_utc;lst_hours;locked_at_utc;lock_lst_hours;status;candidates;rank;analytic_rank;/,
    )
    expect(lines).toHaveLength(5)
  })
})

describe('target pools', () => {
  it('takes good images, says why each bad one was refused, and checks tags', async () => {
    const admin = await keys.tokenFor('admin')
    const pool = await call('POST', '/api/admin/practice/pools', admin, {
      name: `P ${randomUUID()}`,
    })
    const poolId = (pool.json() as { id: string }).id
    const good = (await picture(10)).toString('base64')
    const res = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: [
        { image: good, title: 'ok', feedback: 'fine', tags: ['cold'], licence: 'own', source: 's' },
        {
          image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
          fileName: 'bad.svg',
          title: 'svg',
          feedback: 'no',
          tags: [],
          licence: 'own',
          source: 's',
        },
        {
          image: good,
          title: 't',
          feedback: 'f',
          tags: ['no-such-concept'],
          licence: 'own',
          source: 's',
        },
        { image: good, title: 't', feedback: 'f', tags: [], licence: 'CC-BY-4.0', source: 's' },
      ],
    })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as {
      created: { id: string }[]
      refused: { index: number; code: string }[]
    }
    expect(body.created).toHaveLength(1)
    expect(body.refused.map((r) => [r.index, r.code])).toEqual([
      [1, 'unsupported_image'],
      [2, 'unknown_tags'],
      [3, 'attribution_required'],
    ])
  })

  it('retires a target, and deletes only one no locked session showed', async () => {
    const poolId = await poolWith(5)
    const admin = await keys.tokenFor('admin')
    const list = (
      await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)
    ).json() as {
      id: string
    }[]
    const first = list[0]?.id ?? ''
    const retired = await call('PATCH', `/api/admin/practice/targets/${first}`, admin, {
      retired: true,
      tags: ['warm'],
    })
    expect(retired.json()).toMatchObject({ retired: true, tags: ['warm'] })
    // With one retired, the pool has four active targets: too few to judge among five.
    const user = await userToken()
    const tooSmall = await call('POST', '/api/practice/sessions', user, { poolId })
    expect(tooSmall.json().error.code).toBe('pool_too_small')
    await call('PATCH', `/api/admin/practice/targets/${first}`, admin, { retired: false })

    const s = await start(user, { poolId })
    await call('POST', `/api/practice/sessions/${s.id}/lock`, user)
    // Every target of a five-target pool is now a candidate of a locked session.
    const deleted = await call('DELETE', `/api/admin/practice/targets/${first}`, admin)
    expect(deleted.statusCode).toBe(409)
    expect(deleted.json().error.code).toBe('target_in_use')
  })

  it('draws from the pool as it is now, after a start has read it: retired out, added in', async () => {
    const poolId = await poolWith(5)
    const admin = await keys.tokenFor('admin')
    const candidatesAtLock = async () => {
      const user = await userToken()
      const s = await start(user, { poolId })
      const locked = await call('POST', `/api/practice/sessions/${s.id}/lock`, user)
      expect(locked.statusCode, locked.body).toBe(200)
      return (locked.json() as { candidates: { id: string }[] }).candidates.map((c) => c.id).sort()
    }
    const before = await candidatesAtLock()
    const [retired] = before
    await call('PATCH', `/api/admin/practice/targets/${retired}`, admin, { retired: true })
    const added = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: [
        {
          image: `data:image/jpeg;base64,${(await picture(200)).toString('base64')}`,
          fileName: 'late.jpg',
          title: 'Added after a start',
          feedback: 'A target added after the pool was first drawn from.',
          tags: ['cold', 'rough', 'tall'],
          licence: 'own',
          source: 'made by the test',
        },
      ],
    })
    expect(added.statusCode, added.body).toBe(200)
    const [late] = (added.json() as { created: { id: string }[] }).created
    // Five active targets, five candidates: the set is the whole pool as it now stands.
    const after = await candidatesAtLock()
    expect(after).toEqual([...before.filter((id) => id !== retired), late?.id].sort())
  })

  it("draws from the viewer's showings as they are now, whichever replica locked the last set", async () => {
    // A second replica of the service on the same database, as in production.
    const other = (
      await buildTestService(
        practiceApp,
        loadPracticeConfig,
        { DATABASE_URL: testDatabaseUrl(), ASTRO_URL: 'http://127.0.0.1:9' },
        keys,
      )
    ).app
    try {
      const poolId = await poolWith(30)
      const user = await userToken()
      const session = async (starter: FastifyInstance, locker: FastifyInstance) => {
        const as = (a: FastifyInstance, method: 'POST', url: string, payload?: object) =>
          a.inject({
            method,
            url,
            headers: { authorization: `Bearer ${user}` },
            ...(payload ? { payload } : {}),
          })
        const s = await as(starter, 'POST', '/api/practice/sessions', { poolId, candidates: 10 })
        expect(s.statusCode, s.body).toBe(201)
        const id = (s.json() as { id: string }).id
        const locked = await as(locker, 'POST', `/api/practice/sessions/${id}/lock`)
        expect(locked.statusCode, locked.body).toBe(200)
        const ids = (locked.json() as { candidates: { id: string }[] }).candidates.map((c) => c.id)
        const judged = await as(locker, 'POST', `/api/practice/sessions/${id}/judge`, {
          ranking: ids,
        })
        expect(judged.statusCode, judged.body).toBe(200)
        return ids
      }
      // Each set comes from the pictures never shown: the three sets cover the pool once, both
      // when this replica locked the set before (its kept showings moved forward) and when the
      // other did (this replica's kept showings are stale and must be read again).
      const first = await session(app, app)
      const second = await session(app, other)
      const third = await session(app, app)
      expect(new Set([...first, ...second, ...third]).size).toBe(30)
    } finally {
      await other.close()
    }
  })
})

describe("a visitor's trial", () => {
  it('runs without saving anything, and a changed token is refused', async () => {
    const started = await call('POST', '/api/practice/trial', null)
    expect(started.statusCode, started.body).toBe(201)
    const trial = started.json() as { token: string; commitment: string }
    const writeUp = { stage2: { temperatures: ['cold'] } }
    const locked = await call('POST', '/api/practice/trial/lock', null, {
      token: trial.token,
      writeUp,
    })
    expect(locked.statusCode, locked.body).toBe(200)
    const { token, candidates } = locked.json() as { token: string; candidates: { id: string }[] }
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    const refused = await call('POST', '/api/practice/trial/judge', null, {
      token: tampered,
      ranking: candidates.map((c) => c.id),
      writeUp,
    })
    expect(refused.statusCode).toBe(400)
    const judged = await call('POST', '/api/practice/trial/judge', null, {
      token,
      ranking: candidates.map((c) => c.id),
      writeUp,
    })
    expect(judged.statusCode, judged.body).toBe(200)
    const reveal = judged.json() as { targetId: string; imageSha256: string; nonce: string }
    expect(sha(`${reveal.targetId}|${reveal.imageSha256}|${reveal.nonce}`)).toBe(trial.commitment)
  })
})

interface Candidate {
  id: string
  imageUrl: string
  imageSha256: string
}

async function lockAndRank(token: string, id: string): Promise<Candidate[]> {
  const locked = await call('POST', `/api/practice/sessions/${id}/lock`, token)
  expect(locked.statusCode, locked.body).toBe(200)
  return (locked.json() as { candidates: Candidate[] }).candidates
}

describe('the committed candidate set', () => {
  it('is fixed at the start: the candidate commitment verifies against the images served at the lock', async () => {
    const token = await userToken()
    const res = await call('POST', '/api/practice/sessions', token, { candidates: 10 })
    expect(res.statusCode, res.body).toBe(201)
    const s = res.json() as Started & { candidateCommitment: string }
    expect(s.candidateCommitment).toMatch(/^[0-9a-f]{64}$/)
    const candidates = await lockAndRank(token, s.id)
    expect(candidates).toHaveLength(10)
    const served: string[] = []
    for (const c of candidates) {
      const image = await call('GET', c.imageUrl, token)
      expect(image.statusCode).toBe(200)
      served.push(sha(image.rawPayload))
      expect(sha(image.rawPayload)).toBe(c.imageSha256)
    }
    const judged = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
      ranking: candidates.map((c) => c.id),
    })
    const reveal = judged.json() as {
      nonce: string
      candidateCommitment: string
      candidateImageSha256: string[]
      analyticRank: number
      chanceFigureOfMerit: number
    }
    expect(sha(`${[...served].sort().join(',')}|${reveal.nonce}`)).toBe(s.candidateCommitment)
    expect(reveal.candidateCommitment).toBe(s.candidateCommitment)
    expect(reveal.candidateImageSha256).toEqual([...served].sort())
    expect(reveal.analyticRank).toBeGreaterThanOrEqual(1)
    expect(reveal.analyticRank).toBeLessThanOrEqual(10)
  })

  it('shows one hint common to every candidate, or none', async () => {
    const token = await userToken()
    const admin = await keys.tokenFor('admin')
    const s = (await call('POST', '/api/practice/sessions', token, {})).json() as Started & {
      frontloading: string | null
    }
    const candidates = await lockAndRank(token, s.id)
    if (s.frontloading === null) return
    const all = (await call('GET', '/api/admin/practice/targets', admin)).json() as {
      id: string
      frontloading: string | null
    }[]
    const hints = new Map(all.map((t) => [t.id, t.frontloading]))
    expect(candidates.map((c) => hints.get(c.id))).toEqual(candidates.map(() => s.frontloading))
  })

  it('is ranked by the analytic judge at the lock: a write-up of the target comes first', async () => {
    // Two kinds of target: the write-up describes the one tagged differently from the rest.
    const admin = await keys.tokenFor('admin')
    const poolId = await poolWith(5, ['cold', 'rough', 'tall'])
    const targets = (
      await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)
    ).json() as { id: string }[]
    const token = await userToken()
    const s = await start(token, { poolId })
    const target = (
      await app.pg.query<{ target_id: string }>(
        'SELECT target_id FROM practice.sessions WHERE id = $1',
        [s.id],
      )
    ).rows[0]?.target_id
    for (const t of targets) {
      const tags = t.id === target ? ['warm', 'smooth', 'red'] : ['cold', 'rough', 'tall']
      await call('PATCH', `/api/admin/practice/targets/${t.id}`, admin, { tags })
    }
    await call('PUT', `/api/practice/sessions/${s.id}`, token, {
      writeUp: { stage2: { temperatures: ['warm'], textures: ['smooth'], colours: ['red'] } },
    })
    const candidates = await lockAndRank(token, s.id)
    const reveal = (
      await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
        ranking: candidates.map((c) => c.id),
      })
    ).json() as {
      analyticRank: number
      chanceFigureOfMerit: number
      score: { figureOfMerit: number }
    }
    expect(reveal.analyticRank).toBe(1)
    expect(reveal.score.figureOfMerit).toBe(1)
    expect(reveal.chanceFigureOfMerit).toBe(0)
  })
})

describe('one open session per viewer', () => {
  it('answers a second start with 409 naming the open session, until it is judged', async () => {
    const token = await userToken()
    const s = await start(token)
    const second = await call('POST', '/api/practice/sessions', token, {})
    expect(second.statusCode).toBe(409)
    expect(second.json().error).toMatchObject({
      code: 'session_open',
      details: { sessionId: s.id },
    })
    const candidates = await lockAndRank(token, s.id)
    const locked = await call('POST', '/api/practice/sessions', token, {})
    expect(locked.json().error.code).toBe('session_open')
    await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
      ranking: candidates.map((c) => c.id),
    })
    await start(token)
  })

  it('allows one of two simultaneous starts', async () => {
    const token = await userToken()
    const both = await Promise.all([
      call('POST', '/api/practice/sessions', token, {}),
      call('POST', '/api/practice/sessions', token, {}),
    ])
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409])
  })

  it('refuses a start from a pool that does not exist, and starts nothing', async () => {
    const token = await userToken()
    const res = await call('POST', '/api/practice/sessions', token, { poolId: randomUUID() })
    expect(res.statusCode).toBe(404)
    expect(res.json().error).toMatchObject({ code: 'not_found', message: 'Target pool not found' })
    // Nothing was left open: the next start from the starter pool goes ahead.
    expect((await call('POST', '/api/practice/sessions', token, {})).statusCode).toBe(201)
  })

  it('closes a session left longer than a day as abandoned, counted at the chance rank', async () => {
    const token = await userToken()
    const open = await start(token)
    expect((await call('POST', '/api/practice/sessions', token, {})).statusCode).toBe(409)
    await app.pg.query(
      "UPDATE practice.sessions SET started_at = now() - interval '25 hours' WHERE id = $1",
      [open.id],
    )
    // The next start closes it and goes ahead.
    const next = await start(token)
    const view = (await call('GET', `/api/practice/sessions/${open.id}`, token)).json() as {
      status: string
      abandonedAt?: string
    }
    expect(view.status).toBe('abandoned')
    expect(view.abandonedAt).toBeDefined()
    for (const [method, url, body] of [
      ['PUT', `/api/practice/sessions/${open.id}`, { writeUp: { summary: 'late' } }],
      ['POST', `/api/practice/sessions/${open.id}/lock`, undefined],
      ['POST', `/api/practice/sessions/${open.id}/judge`, { ranking: [] }],
    ] as const) {
      const res = await call(method, url, token, body)
      expect(res.statusCode, `${method} ${url}`).toBe(409)
      expect(res.json().error.code).toBe('session_abandoned')
    }
    // A locked, unjudged session is closed the same way.
    const shown = await lockAndRank(token, next.id)
    await app.pg.query(
      "UPDATE practice.sessions SET started_at = now() - interval '25 hours' WHERE id = $1",
      [next.id],
    )
    // Judging it now is refused, and the refusal closes it for good.
    const late = await call('POST', `/api/practice/sessions/${next.id}/judge`, token, {
      ranking: shown.map((c) => c.id),
    })
    expect(late.json().error.code).toBe('session_abandoned')
    const stats = (await call('GET', '/api/practice/stats', token)).json() as {
      sessions: number
      judged: number
      abandoned: number
      sumOfRanks: number
      expectedSumOfRanks: number
      history: { status: string }[]
    }
    expect(stats).toMatchObject({ sessions: 2, judged: 0, abandoned: 2 })
    expect(stats.sumOfRanks).toBe(6)
    expect(stats.expectedSumOfRanks).toBe(6)
    expect(stats.history.map((h) => h.status)).toEqual(['abandoned', 'abandoned'])
  })
})

describe('a declared series', () => {
  it('fixes n and N before its first session and shows its result only when complete', async () => {
    const poolId = await poolWith(20)
    const token = await userToken()
    const declared = await call('POST', '/api/practice/series', token, {
      sessions: 5,
      candidates: 10,
      judging: 'self',
    })
    expect(declared.statusCode, declared.body).toBe(201)
    const series = declared.json() as { id: string; result: unknown }
    expect(series.result).toBeNull()
    const again = await call('POST', '/api/practice/series', token, {
      sessions: 5,
      candidates: 5,
      judging: 'analytic',
    })
    expect(again.json().error.code).toBe('series_running')
    const wrong = await call('POST', '/api/practice/sessions', token, { poolId, candidates: 5 })
    expect(wrong.json().error.code).toBe('series_candidates')
    let sum = 0
    for (let i = 0; i < 5; i++) {
      const s = await start(token, { poolId })
      const candidates = await lockAndRank(token, s.id)
      expect(candidates).toHaveLength(10)
      const listed = (await call('GET', '/api/practice/series', token)).json() as {
        result: unknown
        started: number
      }[]
      expect(listed[0]).toMatchObject({ started: i + 1, result: null })
      const reveal = (
        await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
          ranking: candidates.map((c) => c.id),
        })
      ).json() as { rank: number }
      sum += reveal.rank
    }
    const done = (await call('GET', '/api/practice/series', token)).json() as {
      complete: boolean
      result: { sumOfRanks: number; sumOfRanksP: number } | null
    }[]
    expect(done[0]?.complete).toBe(true)
    expect(done[0]?.result?.sumOfRanks).toBe(sum)
    expect(done[0]?.result?.sumOfRanksP).toBeGreaterThan(0)
  })
})

describe("a visitor's trial, locked", () => {
  it('shows the same candidates at every lock, bound to one write-up', async () => {
    const trial = (await call('POST', '/api/practice/trial', null)).json() as {
      token: string
      candidateCommitment: string
    }
    const writeUp = { stage2: { colours: ['blue'] } }
    const locks = await Promise.all(
      [1, 2, 3].map(() =>
        call('POST', '/api/practice/trial/lock', null, { token: trial.token, writeUp }),
      ),
    )
    const sets = locks.map((l) => (l.json() as { candidates: Candidate[] }).candidates)
    expect(sets[1]).toEqual(sets[0])
    expect(sets[2]).toEqual(sets[0])
    const { token } = locks[0]?.json() as { token: string }
    const other = await call('POST', '/api/practice/trial/lock', null, {
      token,
      writeUp: { stage2: { colours: ['red'] } },
    })
    expect(other.json().error.code).toBe('trial_locked')
    const ranking = (sets[0] ?? []).map((c) => c.id)
    const changed = await call('POST', '/api/practice/trial/judge', null, {
      token,
      ranking,
      writeUp: { stage2: { colours: ['red'] } },
    })
    expect(changed.json().error.code).toBe('write_up_changed')
    const judged = await call('POST', '/api/practice/trial/judge', null, {
      token,
      ranking,
      writeUp,
    })
    expect(judged.statusCode, judged.body).toBe(200)
    const reveal = judged.json() as { nonce: string }
    const hashes = (sets[0] ?? []).map((c) => c.imageSha256).sort()
    expect(sha(`${hashes.join(',')}|${reveal.nonce}`)).toBe(trial.candidateCommitment)
  })
})

describe('administrators', () => {
  it('get the same answer for every action whichever candidate an open session holds', async () => {
    const admin = await keys.tokenFor('admin')
    // Each action is tried on the session's target, on a decoy of its set, and on a free target.
    const outcomes = async (action: (id: string) => Promise<LightMyRequestResponse>) => {
      const poolId = await poolWith(6)
      const token = await userToken()
      const s = await start(token, { poolId })
      const row = (
        await app.pg.query<{ target_id: string; candidates: string[] }>(
          'SELECT target_id, candidates FROM practice.sessions WHERE id = $1',
          [s.id],
        )
      ).rows[0]
      const all = (
        await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)
      ).json() as { id: string }[]
      const target = row?.target_id ?? ''
      const decoy = row?.candidates.find((c) => c !== target) ?? ''
      const free = all.find((t) => !row?.candidates.includes(t.id))?.id ?? ''
      const answer = async (id: string) => {
        const res = await action(id)
        const image = await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)
        const listed = (image.json() as { id: string; imageUrl: string }[]).find((t) => t.id === id)
        const picture = listed ? (await call('GET', listed.imageUrl, admin)).statusCode : 'gone'
        return {
          status: res.statusCode,
          code: res.statusCode >= 400 ? res.json().error.code : '',
          picture,
        }
      }
      const [onTarget, onDecoy] = [await answer(target), await answer(decoy)]
      // The session still locks, judges and serves its whole set afterwards.
      const candidates = await lockAndRank(token, s.id)
      for (const c of candidates)
        expect((await call('GET', c.imageUrl, token)).statusCode).toBe(200)
      const judged = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
        ranking: candidates.map((c) => c.id),
      })
      expect(judged.statusCode, judged.body).toBe(200)
      return { onTarget, onDecoy, onFree: await answer(free) }
    }
    const del = await outcomes((id) => call('DELETE', `/api/admin/practice/targets/${id}`, admin))
    expect(del.onTarget).toEqual(del.onDecoy)
    expect(del.onTarget.code).toBe('target_in_use')
    expect(del.onFree.status).toBe(204)
    const retire = await outcomes((id) =>
      call('PATCH', `/api/admin/practice/targets/${id}`, admin, { retired: true }),
    )
    expect(retire.onTarget).toEqual(retire.onDecoy)
    expect(retire.onTarget).toEqual(retire.onFree)
    const edit = await outcomes((id) =>
      call('PATCH', `/api/admin/practice/targets/${id}`, admin, {
        title: 'Renamed',
        tags: ['warm'],
        frontloading: 'a structure',
      }),
    )
    expect(edit.onTarget).toEqual(edit.onDecoy)
    expect(edit.onTarget).toEqual(edit.onFree)
  })
})
