// Contributions (issue [24] items 2 and 3) through the real HTTP stack and PostgreSQL: a user
// submits a picture, an administrator other than them tags it blind, a moderator approves it
// into a pool with the agreed tags or rejects it with a reason, and its contributor is never
// shown it in a session of theirs.
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '@crv/contracts'
import { buildTestService, testDatabaseUrl, unseenPicture } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import practiceApp from '../src/app.ts'
import { loadPracticeConfig } from '../src/config.ts'

type Schemas = components['schemas']
type Contribution = Schemas['PracticeContribution']
type Review = Schemas['PracticeContributionReview']

let app: FastifyInstance
let keys: TestKeys
beforeAll(async () => {
  const built = await buildTestService(practiceApp, loadPracticeConfig, {
    DATABASE_URL: testDatabaseUrl(),
    ASTRO_URL: 'http://127.0.0.1:9',
  })
  app = built.app
  keys = built.keys
})
afterAll(() => app.close())

const newUser = () => keys.tokenFor('user', `contributor-${randomUUID()}`)
const newAdmin = () => keys.tokenFor('admin', `moderator-${randomUUID()}`)

function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  })
}

const dataUrl = (bytes: Buffer) => `data:image/jpeg;base64,${bytes.toString('base64')}`

async function submission(overrides: Partial<Schemas['PracticeContributionNew']> = {}) {
  return {
    image: dataUrl(await unseenPicture()),
    title: 'A harbour at dawn',
    feedback: 'Boats moored in a harbour, the water still, the sky pale.',
    tags: ['ocean', 'cold', 'boat'],
    ownWork: true,
    licence: 'CC-BY-4.0',
    source: '',
    attribution: 'A. Contributor',
    ...overrides,
  } satisfies Schemas['PracticeContributionNew']
}

async function submit(token: string, body: object): Promise<Contribution> {
  const res = await call('POST', '/api/practice/contributions', token, body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as Contribution
}

/**
 * Submits a new random picture. The near-duplicate check compares it with every picture the
 * database holds, earlier runs' included (the machine's database keeps them), so a random
 * picture that happens to resemble one of those is drawn again, at most twice: a check that
 * refused every picture would still fail here.
 */
async function submitNew(
  token: string,
  overrides: Partial<Schemas['PracticeContributionNew']> = {},
): Promise<Contribution> {
  for (let attempt = 0; ; attempt++) {
    const res = await call(
      'POST',
      '/api/practice/contributions',
      token,
      await submission(overrides),
    )
    const refusedAsCopy = res.statusCode === 409 && res.json().error.code === 'near_duplicate'
    if (refusedAsCopy && attempt < 2) continue
    expect(res.statusCode, res.body).toBe(201)
    return res.json() as Contribution
  }
}

async function newPool(admin: string, name = `Contributions ${randomUUID()}`): Promise<string> {
  const res = await call('POST', '/api/admin/practice/pools', admin, { name })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

async function queue(admin: string, status = 'pending'): Promise<Review[]> {
  const res = await call('GET', `/api/admin/practice/contributions?status=${status}`, admin)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Review[]
}

const inQueue = async (admin: string, id: string, status = 'pending') =>
  (await queue(admin, status)).find((c) => c.id === id)

const tag = (admin: string, id: string, tags: string[]) =>
  call('PUT', `/api/admin/practice/contributions/${id}/second-tags`, admin, { tags })

const approve = (admin: string, id: string, body: object) =>
  call('POST', `/api/admin/practice/contributions/${id}/approval`, admin, body)

const mine = async (token: string) =>
  (await call('GET', '/api/practice/contributions', token)).json() as Contribution[]

describe('submitting a contribution', () => {
  it('stores the picture re-encoded without its metadata and lists it to its contributor as waiting', async () => {
    const user = await newUser()
    const secret = 'GPS 48.8584N 2.2945E home'
    const withExif = await sharp(await unseenPicture())
      .withExif({ IFD0: { ImageDescription: secret, Artist: secret } })
      .jpeg({ quality: 95 })
      .toBuffer()
    expect(withExif.includes(secret)).toBe(true)

    const created = await submit(user, await submission({ image: dataUrl(withExif) }))
    expect(created).toMatchObject({
      status: 'pending',
      ownWork: true,
      licence: 'CC-BY-4.0',
      attribution: 'A. Contributor',
      tags: ['ocean', 'cold', 'boat'],
      rejectionReason: null,
      decidedAt: null,
    })
    expect(await mine(user)).toEqual([created])

    const served = await app.inject({ method: 'GET', url: created.imageUrl })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/jpeg')
    expect(served.rawPayload.includes(secret)).toBe(false)
    const meta = await sharp(served.rawPayload).metadata()
    expect(meta.exif).toBeUndefined()
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(800)
    // Nobody else lists it as theirs.
    expect(await mine(await newUser())).toEqual([])
  })

  it('takes a found picture under an allowlisted licence with its source address and attribution', async () => {
    const user = await newUser()
    const created = await submitNew(user, {
      ownWork: false,
      licence: 'CC-BY-SA-3.0',
      source: 'https://commons.wikimedia.org/wiki/File:Harbour.jpg',
      attribution: 'Jane Doe',
    })
    expect(created).toMatchObject({ ownWork: false, licence: 'CC-BY-SA-3.0', status: 'pending' })
  })

  it('refuses a licence off the allowlist, and own work or found work without what it needs', async () => {
    const user = await newUser()
    const refusals: [Partial<Schemas['PracticeContributionNew']> | object, number, string][] = [
      // Planted fault: a NonCommercial licence is not one of the allowlist.
      [{ licence: 'CC-BY-NC-4.0', ownWork: false, source: 'https://example.org/a' }, 400, ''],
      [{ licence: 'own' }, 400, 'licence_not_allowed'],
      [{ licence: 'CC-BY-SA-4.0', ownWork: true }, 400, 'licence_not_allowed'],
      [{ licence: 'CC0-1.0', ownWork: false, source: '' }, 400, 'source_required'],
      [
        { licence: 'CC0-1.0', ownWork: false, source: 'javascript:alert(1)' },
        400,
        'source_required',
      ],
      [{ licence: 'CC-BY-4.0', attribution: null }, 400, 'attribution_required'],
      [{ licence: 'CC-BY-4.0', attribution: '   ' }, 400, 'attribution_required'],
      [{ tags: ['ocean', 'blorf'] }, 400, 'unknown_tags'],
      [{ tags: [] }, 400, ''],
    ]
    for (const [overrides, status, code] of refusals) {
      const res = await call('POST', '/api/practice/contributions', user, {
        ...(await submission()),
        ...overrides,
      })
      expect(res.statusCode, `${JSON.stringify(overrides)}: ${res.body}`).toBe(status)
      if (code) expect(res.json().error.code).toBe(code)
    }
    expect(await mine(user)).toEqual([])
    // The control: the same submission with an allowed licence is taken.
    await submitNew(user, { licence: 'CC0-1.0', attribution: null })
  })

  it('refuses a copy at another JPEG quality of a pool target or of a waiting contribution, naming neither (planted fault)', async () => {
    const admin = await newAdmin()
    const poolId = await newPool(admin)
    const inPool = await unseenPicture()
    const added = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: [
        {
          image: dataUrl(inPool),
          title: 'A secret target',
          feedback: 'In a pool.',
          tags: ['ocean'],
          licence: 'CC0-1.0',
          source: 'test',
        },
      ],
    })
    expect((added.json() as { created: unknown[] }).created).toHaveLength(1)
    const waiting = await unseenPicture()
    const other = await newUser()
    await submit(other, await submission({ image: dataUrl(waiting) }))

    const user = await newUser()
    for (const original of [inPool, waiting]) {
      const copy = await sharp(original).resize(500).jpeg({ quality: 35 }).toBuffer()
      const res = await call(
        'POST',
        '/api/practice/contributions',
        user,
        await submission({ image: dataUrl(copy) }),
      )
      expect(res.statusCode, res.body).toBe(409)
      expect(res.json().error.code).toBe('near_duplicate')
      expect(res.body).not.toContain('secret')
      expect(res.json().error.details).toBeUndefined()
    }
    expect(await mine(user)).toEqual([])
  })

  it('keeps at most 20 contributions of one user waiting', async () => {
    const user = await newUser()
    for (let i = 0; i < 20; i++) await submitNew(user)
    const res = await call('POST', '/api/practice/contributions', user, await submission())
    expect(res.statusCode).toBe(409)
    expect(res.json().error.code).toBe('too_many_pending')
    // Another user is not held by it.
    await submitNew(await newUser())
  }, 60_000)
})

describe('tagging and moderation', () => {
  it('withholds the contributor’s tags from every administrator until a second tagger has tagged blind', async () => {
    const contributorAdmin = await newAdmin()
    const created = await submitNew(contributorAdmin)
    const tagger = await newAdmin()

    const before = await inQueue(tagger, created.id)
    expect(before).toMatchObject({
      title: 'A harbour at dawn',
      feedback: null,
      contributorTags: null,
      secondTags: null,
      agreement: null,
      yours: false,
    })
    expect(JSON.stringify(before)).not.toContain('boat')
    // Not even to its contributor, who is an administrator too; and they may not tag it.
    expect(await inQueue(contributorAdmin, created.id)).toMatchObject({
      yours: true,
      contributorTags: null,
    })
    const own = await tag(contributorAdmin, created.id, ['ocean'])
    expect(own.statusCode).toBe(403)
    expect(own.json().error.code).toBe('own_contribution')
    expect((await tag(tagger, created.id, ['ocean', 'blorf'])).json().error.code).toBe(
      'unknown_tags',
    )

    const tagged = await tag(tagger, created.id, ['ocean', 'boat', 'wood', 'calm'])
    expect(tagged.statusCode, tagged.body).toBe(200)
    const review = tagged.json() as Review
    expect(review).toMatchObject({
      contributorTags: ['ocean', 'cold', 'boat'],
      secondTags: ['ocean', 'boat', 'wood', 'calm'],
      secondTaggedByYou: true,
      feedback: 'Boats moored in a harbour, the water still, the sky pale.',
    })
    expect(review.agreement).toMatchObject({
      both: ['boat', 'ocean'],
      contributorOnly: ['cold'],
      secondOnly: ['calm', 'wood'],
    })
    expect(review.agreement?.universe).toBeGreaterThan(100)
    expect(review.agreement?.kappa).toBeGreaterThan(0.5)
    expect(review.agreement?.kappa).toBeLessThan(0.6)

    const again = await tag(await newAdmin(), created.id, ['ocean'])
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('already_tagged')
  })

  it('approves into a pool only once second-tagged, with the agreed tags and κ, and the contributor sees it in the pool', async () => {
    const user = await newUser()
    const created = await submitNew(user)
    const moderator = await newAdmin()
    const poolId = await newPool(moderator)

    const early = await approve(moderator, created.id, { poolId })
    expect(early.statusCode).toBe(409)
    expect(early.json().error.code).toBe('second_tags_missing')
    expect((await tag(moderator, created.id, ['ocean', 'boat', 'calm'])).statusCode).toBe(200)

    const wrong = await approve(moderator, created.id, { poolId, confirmedTags: ['ocean'] })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error.code).toBe('tag_not_disputed')
    expect((await approve(moderator, created.id, { poolId: randomUUID() })).statusCode).toBe(404)

    const approved = await approve(moderator, created.id, { poolId, confirmedTags: ['calm'] })
    expect(approved.statusCode, approved.body).toBe(200)
    const review = approved.json() as Review
    expect(review).toMatchObject({
      status: 'in_pool',
      poolId,
      agreedTags: ['boat', 'calm', 'ocean'],
    })

    const targets = (
      await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, moderator)
    ).json() as Schemas['PracticeTarget'][]
    expect(targets).toHaveLength(1)
    expect(targets[0]).toMatchObject({
      id: review.targetId,
      title: 'A harbour at dawn',
      tags: ['boat', 'calm', 'ocean'],
      licence: 'CC-BY-4.0',
      attribution: 'A. Contributor',
    })
    // The target's picture is a copy under a key of its own, not the contribution's.
    expect(targets[0]?.imageUrl).not.toBe(created.imageUrl)
    const stored = await app.db.execute<{ contributed_by: string; tag_kappa: number }>(
      sql`SELECT contributed_by, tag_kappa FROM practice.targets WHERE id = ${review.targetId}::uuid`,
    )
    expect(stored.rows[0]?.tag_kappa).toBe(review.agreement?.kappa)
    expect(stored.rows[0]?.contributed_by).toMatch(/^contributor-/)
    // The pool's health averages it.
    const health = await call('GET', `/api/admin/practice/pools/${poolId}/health`, moderator)
    expect(health.json()).toMatchObject({
      tagAgreement: {
        targets: 1,
        meanKappa: Math.round((review.agreement?.kappa ?? 0) * 1000) / 1000,
      },
    })

    expect((await mine(user))[0]).toMatchObject({ status: 'in_pool', rejectionReason: null })
    const twice = await approve(await newAdmin(), created.id, { poolId })
    expect(twice.statusCode).toBe(409)
    expect(twice.json().error.code).toBe('contribution_decided')
    expect(await inQueue(moderator, created.id, 'in_pool')).toMatchObject({
      targetId: review.targetId,
    })
  })

  it('refuses an approval that leaves no agreed tag', async () => {
    const created = await submitNew(await newUser(), { tags: ['cold'] })
    const moderator = await newAdmin()
    await tag(moderator, created.id, ['warm'])
    const res = await approve(moderator, created.id, { poolId: await newPool(moderator) })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('no_agreed_tags')
    expect((await inQueue(moderator, created.id))?.agreement?.kappa).toBeLessThan(0)
  })

  it('refuses an approval whose agreed tags are more than a target holds', async () => {
    const concepts = (
      await call('GET', '/api/practice/concepts?limit=100', await newUser())
    ).json() as Schemas['PracticeConcept'][]
    const ids = [...new Set(concepts.map((c) => c.conceptId))]
    expect(ids.length).toBeGreaterThanOrEqual(60)
    // 20 tags both chose, 40 one of them chose, all confirmed: 60 agreed.
    const created = await submitNew(await newUser(), { tags: ids.slice(0, 40) })
    const moderator = await newAdmin()
    expect((await tag(moderator, created.id, ids.slice(20, 60))).statusCode).toBe(200)
    const poolId = await newPool(moderator)
    const disputed = [...ids.slice(0, 20), ...ids.slice(40, 60)]
    const res = await approve(moderator, created.id, { poolId, confirmedTags: disputed })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().error.code).toBe('too_many_tags')
    // Nothing entered the pool, and the contribution still waits.
    const targets = await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, moderator)
    expect(targets.json()).toEqual([])
    const fewer = await approve(moderator, created.id, {
      poolId,
      confirmedTags: disputed.slice(0, 30),
    })
    expect(fewer.statusCode, fewer.body).toBe(200)
    expect((fewer.json() as Review).agreedTags).toHaveLength(50)
  })

  it('adds the target once when two moderators approve at the same moment', async () => {
    const created = await submitNew(await newUser())
    const [first, second] = [await newAdmin(), await newAdmin()]
    await tag(first, created.id, ['ocean', 'boat'])
    const poolId = await newPool(first)
    const answers = await Promise.all([
      approve(first, created.id, { poolId }),
      approve(second, created.id, { poolId }),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    const targets = (
      await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, first)
    ).json() as unknown[]
    expect(targets).toHaveLength(1)
  })

  it('rejects with a reason its contributor reads, once', async () => {
    const user = await newUser()
    const created = await submitNew(user)
    const moderator = await newAdmin()
    const reason = 'The picture shows a recognisable person; please send one without people.'
    const res = await call(
      'POST',
      `/api/admin/practice/contributions/${created.id}/rejection`,
      moderator,
      {
        reason,
      },
    )
    expect(res.statusCode, res.body).toBe(200)
    expect((await mine(user))[0]).toMatchObject({ status: 'rejected', rejectionReason: reason })
    expect((await mine(user))[0]?.decidedAt).not.toBeNull()
    expect(await inQueue(moderator, created.id, 'rejected')).toMatchObject({
      rejectionReason: reason,
    })
    const again = await approve(moderator, created.id, { poolId: await newPool(moderator) })
    expect(again.json().error.code).toBe('contribution_decided')
  })
})

/** Starts, locks and judges a session in the pool; the candidate set the lock showed. */
async function sessionSet(token: string, poolId: string): Promise<string[]> {
  const started = await call('POST', '/api/practice/sessions', token, { poolId, candidates: 5 })
  expect(started.statusCode, started.body).toBe(201)
  const { id } = started.json() as { id: string }
  const locked = await call('POST', `/api/practice/sessions/${id}/lock`, token)
  const candidates = (locked.json() as { candidates: { id: string }[] }).candidates.map((c) => c.id)
  const judged = await call('POST', `/api/practice/sessions/${id}/judge`, token, {
    ranking: candidates,
  })
  expect(judged.statusCode, judged.body).toBe(200)
  return candidates
}

describe('a contributor', () => {
  it('is never shown their own target, while other viewers are', async () => {
    const admin = await newAdmin()
    const poolId = await newPool(admin)
    const others = await call('POST', '/api/admin/practice/targets', admin, {
      poolId,
      targets: await Promise.all(
        Array.from({ length: 5 }, async (_, i) => ({
          image: dataUrl(await unseenPicture()),
          title: `Other ${i}`,
          feedback: 'Another target.',
          tags: ['ocean'],
          licence: 'CC0-1.0',
          source: 'test',
        })),
      ),
    })
    const otherIds = (others.json() as { created: { id: string }[] }).created.map((t) => t.id)
    expect(otherIds).toHaveLength(5)

    const contributor = await newUser()
    const created = await submitNew(contributor)
    await tag(admin, created.id, ['ocean', 'boat'])
    const own = ((await approve(admin, created.id, { poolId })).json() as Review).targetId
    expect(own).toBeTruthy()

    // Six targets, sets of five: without the exclusion the own target would be in a set with
    // probability 5/6 each time; excluded from the whole set, every set is the other five.
    for (let i = 0; i < 8; i++) {
      expect((await sessionSet(contributor, poolId)).sort()).toEqual([...otherIds].sort())
    }
    // Another viewer meets it: over sessions the eligible class is the whole pool.
    const viewer = await newUser()
    const seen = new Set<string>()
    for (let i = 0; i < 8 && !seen.has(own ?? ''); i++)
      for (const c of await sessionSet(viewer, poolId)) seen.add(c)
    expect(seen.has(own ?? '')).toBe(true)
  }, 60_000)

  it('sees the pool too small when only their own targets would fill a set', async () => {
    const admin = await newAdmin()
    const poolId = await newPool(admin)
    const contributor = await newUser()
    for (let i = 0; i < 5; i++) {
      const created = await submitNew(contributor)
      await tag(admin, created.id, ['ocean', 'boat'])
      expect((await approve(admin, created.id, { poolId })).statusCode).toBe(200)
    }
    const res = await call('POST', '/api/practice/sessions', contributor, { poolId })
    expect(res.statusCode).toBe(409)
    expect(res.json().error.code).toBe('pool_too_small')
    expect(await sessionSet(await newUser(), poolId)).toHaveLength(5)
  }, 60_000)
})

describe('a contributor’s account data', () => {
  it('exports their contributions, and deleting the account forgets them but keeps the targets', async () => {
    const user = await newUser()
    const admin = await newAdmin()
    const waiting = await submitNew(user)
    const placed = await submitNew(user)
    await tag(admin, placed.id, ['ocean'])
    const poolId = await newPool(admin)
    const targetId = ((await approve(admin, placed.id, { poolId })).json() as Review).targetId

    const exported = await call('GET', '/api/account/practice', user)
    expect(exported.statusCode, exported.body).toBe(200)
    expect(
      (exported.json() as Schemas['PracticeAccountData']).contributions?.map((c) => c.id).sort(),
    ).toEqual([waiting.id, placed.id].sort())

    expect((await call('DELETE', '/api/account/practice', user)).statusCode).toBe(204)
    expect(await mine(user)).toEqual([])
    expect((await app.inject({ method: 'GET', url: waiting.imageUrl })).statusCode).toBe(404)
    const targets = (
      await call('GET', `/api/admin/practice/targets?poolId=${poolId}`, admin)
    ).json() as { id: string }[]
    expect(targets.map((t) => t.id)).toEqual([targetId])
  })
})
