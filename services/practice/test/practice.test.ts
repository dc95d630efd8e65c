import { createHash, randomUUID } from 'node:crypto'
import sharp from 'sharp'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
      image: `data:image/jpeg;base64,${(await picture(i * 40)).toString('base64')}`,
      fileName: `t${i}.jpg`,
      title: `Target ${i}`,
      feedback: `A test target number ${i}.`,
      tags,
      licence: 'own',
      source: 'made by the test',
    })),
  )
  const created = await call('POST', '/api/admin/practice/targets', admin, { poolId, targets })
  expect(created.statusCode, created.body).toBe(200)
  expect((created.json() as { created: unknown[] }).created).toHaveLength(count)
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

  it('never gives a user the same target twice, then says the pool is exhausted', async () => {
    const poolId = await poolWith(5)
    const token = await userToken()
    const targets = new Set<string>()
    for (let i = 0; i < 5; i++) {
      const s = await start(token, { poolId })
      await call('POST', `/api/practice/sessions/${s.id}/lock`, token)
      const ids = (
        (await call('GET', `/api/practice/sessions/${s.id}`, token)).json() as {
          candidates: { id: string }[]
        }
      ).candidates.map((c) => c.id)
      const judged = await call('POST', `/api/practice/sessions/${s.id}/judge`, token, {
        ranking: ids,
      })
      targets.add((judged.json() as { targetId: string }).targetId)
    }
    expect(targets.size).toBe(5)
    const sixth = await call('POST', '/api/practice/sessions', token, { poolId })
    expect(sixth.statusCode).toBe(409)
    expect(sixth.json().error.code).toBe('pool_exhausted')
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
      (await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)).body
    const before = await adminView()
    const s = await start(owner, { poolId })
    // The pool as administrators see it does not change when a session draws its target.
    expect(await adminView()).toBe(before)
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
    const poolId = await poolWith(6)
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
    expect(lines[0]).toMatch(/^trn;started_at_utc;lst_hours;status;candidates;rank;/)
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
})

describe("a visitor's trial", () => {
  it('runs without saving anything, and a changed token is refused', async () => {
    const started = await call('POST', '/api/practice/trial', null)
    expect(started.statusCode, started.body).toBe(201)
    const trial = started.json() as { token: string; commitment: string }
    const locked = await call('POST', '/api/practice/trial/lock', null, { token: trial.token })
    expect(locked.statusCode, locked.body).toBe(200)
    const { token, candidates } = locked.json() as { token: string; candidates: { id: string }[] }
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    const refused = await call('POST', '/api/practice/trial/judge', null, {
      token: tampered,
      ranking: candidates.map((c) => c.id),
    })
    expect(refused.statusCode).toBe(400)
    const judged = await call('POST', '/api/practice/trial/judge', null, {
      token,
      ranking: candidates.map((c) => c.id),
      writeUp: { stage2: { temperatures: ['cold'] } },
    })
    expect(judged.statusCode, judged.body).toBe(200)
    const reveal = judged.json() as { targetId: string; imageSha256: string; nonce: string }
    expect(sha(`${reveal.targetId}|${reveal.imageSha256}|${reveal.nonce}`)).toBe(trial.commitment)
  })
})
