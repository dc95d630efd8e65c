import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { decodeBody } from '@crv/kit'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

let h: Harness
let userToken: string
let otherToken: string
let adminToken: string
let gestalts: { id: number; name: string; stage: string }[]
let perceptions: { id: number; name: string; stage: string }[]

beforeAll(async () => {
  h = await harness()
  userToken = await h.keys.tokenFor('user')
  otherToken = await h.keys.tokenFor('user')
  adminToken = await h.keys.tokenFor('admin')
  gestalts = (await h.as(null).get('/api/gestalts?language=en')).json()
  perceptions = (await h.as(null).get('/api/perceptions?language=en')).json()
})
afterAll(() => h.app.close())

const stageOf = (name: string) => perceptions.find((p) => p.stage === name)
const word = () => `word-${Math.random().toString(36).slice(2, 10)}`

describe('categories', () => {
  it('lists the eight gestalts of Stage 1-2 with localised names', async () => {
    expect(gestalts.map((g) => g.name)).toEqual([
      'Biological',
      'Energy',
      'Land',
      'Man-made',
      'Motion',
      'Natural',
      'Space',
      'Water',
    ])
    expect(new Set(gestalts.map((g) => g.stage))).toEqual(new Set(['Stage 1-2']))
  })

  it('lists perceptions of every stage, in stage order', async () => {
    const stages = perceptions.map((p) => p.stage)
    expect(stages).toEqual([...stages].sort())
    expect(new Set(stages)).toEqual(new Set(['Stage 1-2', 'Stage 2-3', 'Stage 4-6']))
  })
})

describe('the bulk vocabulary', () => {
  it('gives visitors Stage 1-2 descriptors only, and signed-in users every stage', async () => {
    const anon = (await h.as(null).get('/api/descriptors/bulk?language=en')).json()
    const user = (await h.as(userToken).get('/api/descriptors/bulk?language=en')).json()
    expect(anon.systemDescriptors.length).toBeGreaterThan(100)
    expect(user.systemDescriptors.length).toBeGreaterThan(anon.systemDescriptors.length + 300)
    const openIds = new Set(
      [...gestalts, ...perceptions.filter((p) => p.stage === 'Stage 1-2')].map((c) => c.id),
    )
    type Shared = {
      gestaltId: number | null
      perceptionId: number | null
      alsoIn?: { id: number }[]
    }
    for (const d of anon.systemDescriptors as Shared[]) {
      const all = [d.gestaltId ?? d.perceptionId, ...(d.alsoIn ?? []).map((o) => o.id)]
      expect(all.some((id) => openIds.has(id ?? 0))).toBe(true)
    }
    expect(anon.userCustomDescriptors).toEqual([])
  })

  it('groups the words by gestalt and by perception and counts them', async () => {
    const res = await h.as(userToken).get('/api/descriptors/bulk?language=en')
    const body = res.json()
    expect(res.headers['cache-control']).toBe('private, max-age=300')
    expect(res.headers.vary).toBe('Authorization, Accept-Encoding')
    expect(body.totalCount).toBe(body.systemDescriptors.length + body.userCustomDescriptors.length)
    const grouped = [...body.byGestalt, ...body.byPerception].flatMap(
      (g: { descriptorIds: number[] }) => g.descriptorIds,
    )
    // Every word in a group; one that stands in further categories in each of theirs.
    expect(new Set(grouped).size).toBe(body.totalCount)
    const further = body.systemDescriptors.reduce(
      (n: number, d: { alsoIn?: unknown[] }) => n + (d.alsoIn?.length ?? 0),
      0,
    )
    expect(further).toBeGreaterThanOrEqual(10)
    expect(grouped.length).toBe(body.totalCount + further)
  })
})

describe('the bulk vocabulary, compressed', () => {
  const bulk = (token: string | null, acceptEncoding?: string) =>
    h.app.inject({
      url: '/api/descriptors/bulk?language=en',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
    })

  it.each([
    ['a visitor', null, 'br', 'br'],
    ['a visitor', null, 'gzip, deflate', 'gzip'],
    ['a visitor', null, 'br;q=0, gzip', 'gzip'],
    ['a signed-in user', 'user', 'gzip, deflate, br', 'gzip'],
  ] as const)(
    'sends %s the same JSON in %s as %s, a fraction of its size',
    async (_who, who, accepts, coding) => {
      const token = who ? userToken : null
      const plain = await bulk(token)
      expect(plain.headers['content-encoding']).toBeUndefined()
      const packed = await bulk(token, accepts)
      expect(packed.statusCode).toBe(200)
      expect(packed.headers['content-encoding']).toBe(coding)
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)
      expect(JSON.parse(decodeBody(packed.rawPayload, coding).toString())).toEqual(plain.json())
    },
  )

  it('sends identity when nothing it offers is accepted', async () => {
    const res = await bulk(null, 'deflate, zstd')
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.json().systemDescriptors.length).toBeGreaterThan(100)
  })
})

describe('random descriptors', () => {
  const random = (token: string | null, body: object) =>
    h.as(token).post('/api/descriptors/random', body)

  it('draws from the chosen categories and stages', async () => {
    const water = gestalts.find((g) => g.name === 'Water')
    for (let i = 0; i < 10; i++) {
      const res = await random(null, {
        gestaltIds: [water?.id],
        perceptionIds: [],
        stages: ['Stage 1-2'],
        language: 'de',
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ gestaltId: water?.id, language: 'de' })
    }
  })

  it('keeps Stage 2-3 and 4-6 for signed-in users', async () => {
    const colours = stageOf('Stage 2-3')
    const body = {
      gestaltIds: [],
      perceptionIds: [colours?.id],
      stages: ['Stage 2-3'],
      language: 'en',
    }
    const anon = await random(null, body)
    expect(anon.statusCode).toBe(401)
    expect(anon.json().error.code).toBe('sign_in_required')
    expect((await random(userToken, body)).statusCode).toBe(200)
  })

  it('never gives the same word twice in a row while others exist', async () => {
    const category = gestalts[0]
    let last: number | undefined
    for (let i = 0; i < 30; i++) {
      const res = await random(userToken, {
        gestaltIds: [category?.id],
        perceptionIds: [],
        stages: ['Stage 1-2'],
        language: 'en',
        ...(last ? { excludeId: last } : {}),
      })
      const id = res.json().id as number
      expect(id).not.toBe(last)
      last = id
    }
  })

  it('asks for a category and explains an empty draw', async () => {
    const none = await random(userToken, {
      gestaltIds: [],
      perceptionIds: [],
      stages: ['Stage 1-2'],
      language: 'en',
    })
    expect(none.json().error).toEqual({
      code: 'no_categories_selected',
      message: 'Please select at least one gestalt or perception to train with.',
    })
    const mismatch = await random(userToken, {
      gestaltIds: [gestalts[0]?.id],
      perceptionIds: [],
      stages: ['Stage 4-6'],
      language: 'en',
    })
    expect(mismatch.statusCode).toBe(404)
    expect(mismatch.json().error.message).toBe(
      'No descriptors available for the selected categories.',
    )
  })

  it('leaves out what the caller has hidden', async () => {
    const token = await h.keys.tokenFor('user')
    const motion = gestalts.find((g) => g.name === 'Motion')
    const bulk = (await h.as(token).get('/api/descriptors/bulk?language=en')).json()
    // Every word that stands in Motion, as its first category or a further one (memberships.csv).
    type InMotion = { id: number; gestaltId: number; alsoIn?: { type: string; id: number }[] }
    const ids = bulk.systemDescriptors
      .filter(
        (d: InMotion) =>
          d.gestaltId === motion?.id ||
          d.alsoIn?.some((o) => o.type === 'gestalt' && o.id === motion?.id),
      )
      .map((d: InMotion) => d.id)
    const keep = ids[0]
    for (const id of ids.slice(1))
      expect((await h.as(token).post(`/api/descriptors/${id}/toggle-hide`)).json()).toEqual({
        hidden: true,
      })
    for (let i = 0; i < 5; i++) {
      const res = await random(token, {
        gestaltIds: [motion?.id],
        perceptionIds: [],
        stages: ['Stage 1-2'],
        language: 'en',
      })
      expect(res.json().id).toBe(keep)
    }
    // Others still get every word.
    const others = new Set<number>()
    for (let i = 0; i < 20; i++) {
      others.add(
        (
          await random(otherToken, {
            gestaltIds: [motion?.id],
            perceptionIds: [],
            stages: ['Stage 1-2'],
            language: 'en',
          })
        ).json().id,
      )
    }
    expect(others.size).toBeGreaterThan(1)
  })
})

describe('a word in several categories (data/memberships.csv)', () => {
  type Shared = {
    id: number
    word: string
    perceptionId: number | null
    alsoIn?: { type: string; id: number }[]
  }
  type Group = { categoryId: number; descriptorIds: number[] }
  const named = (name: string) => perceptions.find((p) => p.name === name)?.id ?? 0
  const bulkOf = async (token: string | null) =>
    (await h.as(token).get('/api/descriptors/bulk?language=de')).json() as {
      systemDescriptors: Shared[]
      byPerception: Group[]
      hiddenDescriptorIds: number[]
    }
  const groupOf = (bulk: { byPerception: Group[] }, id: number) =>
    bulk.byPerception.find((g) => g.categoryId === id)?.descriptorIds ?? []

  it('is one word, listed in First Feelings, Textures and Dimensionals', async () => {
    const [feelings, textures, dimensionals] = [
      named('First Feelings'),
      named('Textures'),
      named('Dimensionals'),
    ]
    const bulk = await bulkOf(userToken)
    const weich = bulk.systemDescriptors.filter((d) => d.word === 'weich')
    expect(weich).toHaveLength(1)
    expect(weich[0]).toMatchObject({
      perceptionId: feelings,
      alsoIn: [
        { type: 'perception', id: textures },
        { type: 'perception', id: dimensionals },
      ],
    })
    const id = weich[0]?.id ?? 0
    for (const category of [feelings, textures, dimensionals])
      expect(groupOf(bulk, category)).toContain(id)
    // A word of one category names no others.
    expect(bulk.systemDescriptors.find((d) => d.word === 'rau')).not.toHaveProperty('alsoIn')
    // A visitor trains Stage 1-2: weich under First Feelings, no Textures group at all.
    const visitor = await bulkOf(null)
    expect(groupOf(visitor, feelings)).toContain(id)
    expect(groupOf(visitor, textures)).toEqual([])
  })

  it('is drawn from a further category, and refused as a custom word there', async () => {
    const userId = `several-${Date.now()}`
    const token = await h.keys.tokenFor('user', userId)
    const textures = named('Textures')
    const bulk = await bulkOf(token)
    const weich = bulk.systemDescriptors.find((d) => d.word === 'weich')?.id
    // Hide every texture but weich: a draw from Textures can only be weich.
    await h.app.db.execute(
      sql`INSERT INTO descriptors.hidden (user_id, descriptor_id)
          SELECT ${userId}, unnest(string_to_array(${groupOf(bulk, textures)
            .filter((i) => i !== weich)
            .join(',')}, ',')::bigint[])`,
    )
    for (let i = 0; i < 5; i++) {
      const res = await h.as(token).post('/api/descriptors/random', {
        gestaltIds: [],
        perceptionIds: [textures],
        stages: ['Stage 2-3'],
        language: 'de',
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().id).toBe(weich)
    }
    const again = await h
      .as(token)
      .post('/api/descriptors', { word: 'Weich', language: 'de', perceptionId: textures })
    expect(again.statusCode).toBe(409)
    expect(again.json().error).toMatchObject({
      code: 'descriptor_exists',
      message: '"weich" is already in this category',
    })
  })
})

describe('custom descriptors', () => {
  it('adds a trimmed word as pending, visible to its creator at once and to no one else', async () => {
    const token = await h.keys.tokenFor('user')
    const text = word()
    const res = await h.as(token).post('/api/descriptors', {
      word: `  ${text}  `,
      language: 'en',
      perceptionId: stageOf('Stage 4-6')?.id,
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      word: text,
      status: 'pending',
      isCustom: true,
      gestaltId: null,
    })
    const mine = (await h.as(token).get('/api/descriptors/bulk?language=en')).json()
    expect(mine.userCustomDescriptors.map((d: { word: string }) => d.word)).toContain(text)
    const theirs = (await h.as(otherToken).get('/api/descriptors/bulk?language=en')).json()
    expect(JSON.stringify(theirs)).not.toContain(text)
    expect(
      (await h.as(token).get('/api/user/descriptors')).json().map((d: { word: string }) => d.word),
    ).toContain(text)
  })

  it('refuses a word the category already has for everyone, in any case', async () => {
    const token = await h.keys.tokenFor('user')
    const gestalt = gestalts[0]
    type Shared = { word: string; gestaltId: number | null }
    const inGestalt = async (language: string) =>
      (
        (await h.as(null).get(`/api/descriptors/bulk?language=${language}`)).json()
          .systemDescriptors as Shared[]
      )
        .filter((d) => d.gestaltId === gestalt?.id)
        .map((d) => d.word)
    const english = await inGestalt('en')
    const italian = new Set((await inGestalt('it')).map((w) => w.toLowerCase()))
    const system = english[0] ?? ''
    const res = await h.as(token).post('/api/descriptors', {
      word: ` ${system.toUpperCase()} `,
      language: 'en',
      gestaltId: gestalt?.id,
    })
    expect(res.statusCode).toBe(409)
    expect(res.json().error).toMatchObject({
      code: 'descriptor_exists',
      message: `"${system}" is already in this category`,
    })
    // In another language the same letters are a word of its own.
    const foreign = english.find((w) => !italian.has(w.toLowerCase())) ?? ''
    const elsewhere = await h
      .as(token)
      .post('/api/descriptors', { word: foreign, language: 'it', gestaltId: gestalt?.id })
    expect(elsewhere.statusCode).toBe(201)
  })

  it('refuses the same word twice in one category (ignoring case and accents), not in another', async () => {
    const token = await h.keys.tokenFor('user')
    const text = `café-${word()}`
    const body = { word: text, language: 'fr', gestaltId: gestalts[0]?.id }
    expect((await h.as(token).post('/api/descriptors', body)).statusCode).toBe(201)
    const again = await h
      .as(token)
      .post('/api/descriptors', { ...body, word: text.toUpperCase().replace('É', 'E') })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('duplicate_descriptor')
    expect(
      (await h.as(token).post('/api/descriptors', { ...body, gestaltId: gestalts[1]?.id }))
        .statusCode,
    ).toBe(201)
  })

  it('refuses a blank word, a word in a gestalt field that names a perception, and anonymous callers', async () => {
    expect(
      (
        await h
          .as(userToken)
          .post('/api/descriptors', { word: '   ', language: 'en', gestaltId: gestalts[0]?.id })
      ).statusCode,
    ).toBe(400)
    expect(
      (
        await h
          .as(userToken)
          .post('/api/descriptors', { word: word(), language: 'en', gestaltId: perceptions[0]?.id })
      ).statusCode,
    ).toBe(404)
    expect(
      (
        await h
          .as(null)
          .post('/api/descriptors', { word: word(), language: 'en', gestaltId: gestalts[0]?.id })
      ).statusCode,
    ).toBe(401)
  })

  it('lets only the creator (or an administrator) delete a custom word', async () => {
    const token = await h.keys.tokenFor('user')
    const created = (
      await h
        .as(token)
        .post('/api/descriptors', { word: word(), language: 'en', gestaltId: gestalts[0]?.id })
    ).json()
    expect((await h.as(otherToken).delete(`/api/descriptors/${created.id}`)).statusCode).toBe(404)
    expect((await h.as(token).delete(`/api/direct-delete/${created.id}`)).statusCode).toBe(204)
    expect((await h.as(token).delete(`/api/descriptors/${created.id}`)).statusCode).toBe(404)
    const another = (
      await h
        .as(token)
        .post('/api/descriptors', { word: word(), language: 'en', gestaltId: gestalts[0]?.id })
    ).json()
    expect((await h.as(adminToken).delete(`/api/descriptors/${another.id}`)).statusCode).toBe(204)
  })

  it('cannot be hidden (delete it instead)', async () => {
    const created = (
      await h
        .as(userToken)
        .post('/api/descriptors', { word: word(), language: 'en', gestaltId: gestalts[0]?.id })
    ).json()
    const res = await h.as(userToken).post(`/api/descriptors/${created.id}/toggle-hide`)
    expect(res.statusCode).toBe(404)
  })
})

describe('hiding', () => {
  it('toggles a default word for one user only', async () => {
    const token = await h.keys.tokenFor('user')
    const first = (await h.as(token).get('/api/descriptors/bulk?language=en')).json()
      .systemDescriptors[3]
    expect((await h.as(token).post(`/api/descriptors/${first.id}/toggle-hide`)).json()).toEqual({
      hidden: true,
    })
    const mine = (await h.as(token).get('/api/descriptors/bulk?language=en')).json()
    expect(mine.hiddenDescriptorIds).toEqual([first.id])
    expect(mine.systemDescriptors.find((d: { id: number }) => d.id === first.id).hidden).toBe(true)
    expect(
      (await h.as(otherToken).get('/api/descriptors/bulk?language=en')).json().hiddenDescriptorIds,
    ).toEqual([])
    expect((await h.as(token).post(`/api/descriptors/${first.id}/toggle-hide`)).json()).toEqual({
      hidden: false,
    })
  })
})

describe('CSV export', () => {
  it('exports the caller’s words as Excel-safe, semicolon-separated UTF-8 with a BOM', async () => {
    const token = await h.keys.tokenFor('user')
    const water = gestalts.find((g) => g.name === 'Water')
    await h
      .as(token)
      .post('/api/descriptors', { word: '=HYPERLINK("x")', language: 'de', gestaltId: water?.id })
    await h
      .as(token)
      .post('/api/descriptors', { word: 'Größe; groß', language: 'de', gestaltId: water?.id })
    await h
      .as(token)
      .post('/api/descriptors', { word: 'only-english', language: 'en', gestaltId: water?.id })
    const res = await h.as(token).get('/api/user/descriptors/export?language=de')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="my_descriptors_de_\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n')
    expect(lines[0]).toBe('ID;Word;Language;Status;Gestalt Name;Perception Name')
    expect(res.body).toContain(
      `;'=HYPERLINK(""x"")`.replace(`'=HYPERLINK(""x"")`, `"'=HYPERLINK(""x"")"`),
    )
    expect(res.body).toContain('"Größe; groß";de;pending;')
    expect(res.body).not.toContain('only-english')
    expect(res.body).not.toMatch(/;=/)
  })
})

describe('moderation', () => {
  it('lists pending words for administrators and promotes one into everyone’s vocabulary', async () => {
    const token = await h.keys.tokenFor('user')
    const text = word()
    const created = (
      await h
        .as(token)
        .post('/api/descriptors', { word: text, language: 'es', gestaltId: gestalts[2]?.id })
    ).json()
    const pending = (await h.as(adminToken).get('/api/admin/pending-descriptors')).json()
    expect(pending.map((d: { id: number }) => d.id)).toContain(created.id)
    const promoted = await h.as(adminToken).post(`/api/admin/promote-descriptor/${created.id}`)
    expect(promoted.json()).toMatchObject({ id: created.id, status: 'approved' })
    const others = (await h.as(otherToken).get('/api/descriptors/bulk?language=es')).json()
    expect(others.systemDescriptors.map((d: { word: string }) => d.word)).toContain(text)
    // The newest community word leads the shared list.
    expect(others.systemDescriptors[0]).toMatchObject({ id: created.id, status: 'approved' })
    expect(
      (await h.as(adminToken).post(`/api/admin/promote-descriptor/${created.id}`)).statusCode,
    ).toBe(409)
  })

  it('rejects a pending word, removing it', async () => {
    const token = await h.keys.tokenFor('user')
    const created = (
      await h
        .as(token)
        .post('/api/descriptors', { word: word(), language: 'es', gestaltId: gestalts[2]?.id })
    ).json()
    expect(
      (await h.as(adminToken).delete(`/api/admin/reject-descriptor/${created.id}`)).statusCode,
    ).toBe(204)
    expect((await h.as(token).get('/api/user/descriptors')).json()).toEqual([])
  })
})

describe('languages', () => {
  it.each(['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'])(
    'ships the whole vocabulary in %s with localised category names',
    async (language) => {
      const bulk = (await h.as(userToken).get(`/api/descriptors/bulk?language=${language}`)).json()
      expect(bulk.systemDescriptors.length).toBeGreaterThanOrEqual(600)
      expect(new Set(bulk.systemDescriptors.map((d: { language: string }) => d.language))).toEqual(
        new Set([language]),
      )
      const names = (await h.as(null).get(`/api/gestalts?language=${language}`))
        .json()
        .map((g: { name: string }) => g.name)
      if (language !== 'en') expect(names).not.toEqual(gestalts.map((g) => g.name))
    },
  )
})

describe('the CSV as a spreadsheet reads it', () => {
  it('round-trips accents, separators, quotes and neutralised formulas through a CSV parser', async () => {
    const { parse } = await import('csv-parse/sync')
    const token = await h.keys.tokenFor('user')
    const natural = gestalts.find((g) => g.name === 'Natural')
    const words = ['Größe; „groß“', 'Äußeres "Wasser"', '@SUM(A1)', 'ça se lève']
    for (const w of words)
      await h
        .as(token)
        .post('/api/descriptors', { word: w, language: 'de', gestaltId: natural?.id })
    const res = await h.as(token).get('/api/user/descriptors/export?language=de')
    const rows = parse(res.rawPayload, {
      delimiter: ';',
      bom: true,
      columns: true,
      record_delimiter: '\r\n',
    }) as Record<string, string>[]
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'ID',
      'Word',
      'Language',
      'Status',
      'Gestalt Name',
      'Perception Name',
    ])
    expect(rows.map((r) => r.Word).sort()).toEqual(
      ['Größe; „groß“', 'Äußeres "Wasser"', "'@SUM(A1)", 'ça se lève'].sort(),
    )
    expect(new Set(rows.map((r) => r['Gestalt Name']))).toEqual(new Set(['Natürlich']))
    for (const row of rows) expect(row.Language).toBe('de')
  })
})
