import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Descriptor } from '../src/vocabulary/views.ts'
import { SharedVocabulary, VocabularySnapshot } from '../src/vocabulary/shared-cache.ts'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

const word = (
  id: number,
  categoryId: number,
  categoryType: 'gestalt' | 'perception',
  stage: Descriptor['stage'],
  extra: Partial<Descriptor['api']> = {},
): Descriptor => ({
  api: {
    id,
    word: `wörd ${id} "quoted"`,
    language: 'de',
    gestaltId: categoryType === 'gestalt' ? categoryId : null,
    perceptionId: categoryType === 'perception' ? categoryId : null,
    createdBy: null,
    isCustom: false,
    status: 'system',
    hidden: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  },
  categoryId,
  stage,
  categoryType,
  also: [],
})

describe('the prepared bulk answer', () => {
  const shared = [
    word(1, 10, 'gestalt', 'Stage 1-2'),
    word(2, 10, 'gestalt', 'Stage 1-2'),
    word(3, 20, 'perception', 'Stage 2-3'),
    word(4, 11, 'gestalt', 'Stage 1-2'),
    word(5, 30, 'perception', 'Stage 4-6'),
  ]
  const snapshot = new VocabularySnapshot('de', shared)

  it('gives a visitor Stage 1-2 only, grouped by category', () => {
    const body = JSON.parse(snapshot.visitorBody.toString())
    expect(body.systemDescriptors.map((d: { id: number }) => d.id)).toEqual([1, 2, 4])
    expect(body).toMatchObject({
      userCustomDescriptors: [],
      hiddenDescriptorIds: [],
      language: 'de',
      totalCount: 3,
      byGestalt: [
        { categoryId: 10, descriptorIds: [1, 2] },
        { categoryId: 11, descriptorIds: [4] },
      ],
      byPerception: [],
    })
    expect(body.systemDescriptors[0].word).toBe('wörd 1 "quoted"')
  })

  it("marks the caller's hides, skips hides of other languages, adds their own words", () => {
    const mine = word(99, 20, 'perception', 'Stage 2-3', {
      isCustom: true,
      status: 'pending',
      createdBy: 'u1',
    })
    // 777 is a hidden word of another language: not part of this answer.
    const body = JSON.parse(snapshot.bodyFor([mine], new Set([5, 777, 2])).toString())
    expect(body.systemDescriptors).toHaveLength(5)
    expect(body.systemDescriptors.map((d: { hidden: boolean }) => d.hidden)).toEqual([
      false,
      true,
      false,
      false,
      true,
    ])
    expect(body.systemDescriptors[1]).toEqual({ ...shared[1]?.api, hidden: true })
    expect(body.hiddenDescriptorIds).toEqual([2, 5])
    expect(body.userCustomDescriptors).toEqual([mine.api])
    expect(body.totalCount).toBe(6)
    expect(body.byPerception).toEqual([
      { categoryId: 20, descriptorIds: [3, 99] },
      { categoryId: 30, descriptorIds: [5] },
    ])
    expect(body.byGestalt).toEqual([
      { categoryId: 10, descriptorIds: [1, 2] },
      { categoryId: 11, descriptorIds: [4] },
    ])
  })

  it('hides nothing for a caller without hides', () => {
    const body = JSON.parse(snapshot.bodyFor([], new Set()).toString())
    expect(body.systemDescriptors.map((d: Descriptor['api']) => d)).toEqual(
      shared.map((d) => d.api),
    )
  })
})

describe('a word in several categories', () => {
  // 'soft' (6): first in First Feelings (40, Stage 1-2), also in Textures (41) and
  // Dimensionals (42), both Stage 2-3. 'rough' (7) is a texture only, 'heavy' (8) a
  // dimensional whose further category is the Stage 1-2 gestalt 10.
  const also = (
    categoryId: number,
    categoryType: 'gestalt' | 'perception',
    stage: Descriptor['stage'],
  ) => ({
    categoryId,
    categoryType,
    stage,
  })
  const soft = {
    ...word(6, 40, 'perception', 'Stage 1-2'),
    also: [also(41, 'perception', 'Stage 2-3'), also(42, 'perception', 'Stage 2-3')],
  }
  const rough = word(7, 41, 'perception', 'Stage 2-3')
  const heavy = {
    ...word(8, 42, 'perception', 'Stage 2-3'),
    also: [also(10, 'gestalt', 'Stage 1-2')],
  }
  const snapshot = new VocabularySnapshot('de', [soft, rough, heavy])
  const ids = (list: Descriptor[]) => list.map((d) => d.api.id)

  it('stands in each of its groups once, for a signed-in caller', () => {
    const body = JSON.parse(snapshot.bodyFor([], new Set()).toString())
    expect(body.systemDescriptors.map((d: { id: number }) => d.id)).toEqual([6, 7, 8])
    expect(body.totalCount).toBe(3)
    expect(body.byPerception).toEqual([
      { categoryId: 40, descriptorIds: [6] },
      { categoryId: 41, descriptorIds: [6, 7] },
      { categoryId: 42, descriptorIds: [6, 8] },
    ])
    expect(body.byGestalt).toEqual([{ categoryId: 10, descriptorIds: [8] }])
  })

  it('is open to a visitor through a Stage 1-2 category only', () => {
    const body = JSON.parse(snapshot.visitorBody.toString())
    // heavy is a Stage 2-3 dimensional, but it also stands in the Stage 1-2 gestalt.
    expect(body.systemDescriptors.map((d: { id: number }) => d.id)).toEqual([6, 8])
    expect(body.byPerception).toEqual([{ categoryId: 40, descriptorIds: [6] }])
    expect(body.byGestalt).toEqual([{ categoryId: 10, descriptorIds: [8] }])
  })

  it('is drawn from any of its categories, once when several are chosen', () => {
    const later = new Set<Descriptor['stage']>(['Stage 2-3'])
    expect(ids(snapshot.pool(new Set([41]), later))).toEqual([6, 7])
    expect(ids(snapshot.pool(new Set([40, 41, 42]), new Set([...later, 'Stage 1-2'])))).toEqual([
      6, 7, 8,
    ])
    // Only the chosen stages count: First Feelings is Stage 1-2.
    expect(ids(snapshot.pool(new Set([40]), later))).toEqual([])
    expect(ids(snapshot.pool(new Set([10]), new Set(['Stage 1-2'])))).toEqual([8])
    // Hidden once, gone from every category.
    expect(ids(snapshot.pool(new Set([40, 41, 42]), later, new Set([6])))).toEqual([7, 8])
  })
})

describe('the shared vocabulary cache', () => {
  let h: Harness
  beforeAll(async () => {
    h = await harness()
  })
  afterAll(() => h.app.close())

  // A user's word an administrator approved: a concept of its own, shared from then on.
  const approveNewWord = async (text: string) => {
    await h.app.db.execute(sql`
      WITH c AS (
        INSERT INTO descriptors.concepts (category_id, pos)
        SELECT id, 'noun' FROM descriptors.categories ORDER BY position LIMIT 1
        RETURNING id, category_id)
      INSERT INTO descriptors.descriptors
        (concept_id, category_id, language, word, word_key, status, created_by, is_custom)
      SELECT c.id, c.category_id, 'it', ${text}, ${text}, 'approved', 'someone', true FROM c`)
  }

  it('answers from a stale copy while a fresh one loads, then serves the fresh one', async () => {
    const cache = new SharedVocabulary(h.app.db, 0)
    const first = await cache.snapshot('it')
    await approveNewWord(`parola uno ${Date.now()}`)
    // Stale at once (ttl 0): the old copy answers, a reload starts behind it.
    expect(await cache.snapshot('it')).toBe(first)
    await expect
      .poll(async () => (await cache.snapshot('it')).descriptors.length)
      .toBe(first.descriptors.length + 1)
  })

  it('drops a language at once when this process changes it', async () => {
    const cache = new SharedVocabulary(h.app.db, 60_000)
    const first = await cache.snapshot('it')
    const second = `parola due ${Date.now()}`
    await approveNewWord(second)
    expect(await cache.snapshot('it')).toBe(first)
    cache.invalidate('it')
    const words = (await cache.get('it')).map((d) => d.api.word)
    expect(words).toContain(second)
  })
})
