import { describe, expect, it } from 'vitest'
import type { BulkDescriptors, Descriptor, Gestalt, Perception } from '../../lib/api/generated.ts'
import {
  buildCategories,
  categoriesInStages,
  categoryKeyOf,
  drawLocally,
  isOwnDescriptor,
  keepShownSelection,
  relatedDescriptors,
  sampleWords,
  toggleSelection,
  toggleStage,
  trainingRequest,
  wordsByCategory,
} from './catalog.ts'

let nextId = 1

function descriptor(word: string, fields: Partial<Descriptor> = {}): Descriptor {
  return {
    id: nextId++,
    word,
    language: 'de',
    gestaltId: null,
    perceptionId: null,
    createdBy: null,
    isCustom: false,
    status: 'system',
    hidden: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  }
}

function bulkOf(fields: Partial<BulkDescriptors>): BulkDescriptors {
  return {
    systemDescriptors: [],
    userCustomDescriptors: [],
    hiddenDescriptorIds: [],
    language: 'de',
    totalCount: 0,
    byGestalt: [],
    byPerception: [],
    ...fields,
  }
}

const gestalts: Gestalt[] = [
  { id: 1, name: 'Biologisch', stage: 'Stage 1-2' },
  { id: 8, name: 'Wasser', stage: 'Stage 1-2' },
]
const perceptions: Perception[] = [
  { id: 11, name: 'Farben', stage: 'Stage 2-3' },
  { id: 9, name: 'Erste Gefühle', stage: 'Stage 1-2' },
  { id: 21, name: 'Emotionale Wirkung', stage: 'Stage 4-6' },
]

describe('sample descriptors', () => {
  it('shows the first five words and counts the rest as "+N more"', () => {
    const words = ['eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht']
    expect(sampleWords(words)).toEqual({
      shown: ['eins', 'zwei', 'drei', 'vier', 'fünf'],
      more: 3,
    })
  })

  it('adds no "+N more" when five words or fewer exist', () => {
    expect(sampleWords(['a', 'b', 'c', 'd', 'e'])).toEqual({
      shown: ['a', 'b', 'c', 'd', 'e'],
      more: 0,
    })
    expect(sampleWords([])).toEqual({ shown: [], more: 0 })
  })
})

describe('categories', () => {
  it('lists gestalts first, then perceptions, each in the order the server gave', () => {
    const names = buildCategories(gestalts, perceptions).map((c) => `${c.type} ${c.name}`)
    expect(names).toEqual([
      'gestalt Biologisch',
      'gestalt Wasser',
      'perception Farben',
      'perception Erste Gefühle',
      'perception Emotionale Wirkung',
    ])
  })

  it('shows only the categories of the chosen stages', () => {
    const all = buildCategories(gestalts, perceptions)
    expect(categoriesInStages(all, ['Stage 1-2']).map((c) => c.name)).toEqual([
      'Biologisch',
      'Wasser',
      'Erste Gefühle',
    ])
    expect(categoriesInStages(all, ['Stage 2-3', 'Stage 4-6']).map((c) => c.name)).toEqual([
      'Farben',
      'Emotionale Wirkung',
    ])
  })

  it('tells a gestalt and a perception with the same id apart', () => {
    const all = buildCategories(
      [{ id: 5, name: 'G', stage: 'Stage 1-2' }],
      [{ id: 5, name: 'P', stage: 'Stage 1-2' }],
    )
    expect(new Set(all.map((c) => c.key)).size).toBe(2)
  })
})

describe('words of a category', () => {
  it('leaves hidden words out of what is shown but keeps them for the full list', () => {
    const stein = descriptor('Stein', { gestaltId: 3 })
    const sand = descriptor('Sand', { gestaltId: 3, hidden: true })
    const erde = descriptor('Erde', { gestaltId: 3 })
    const words = wordsByCategory(
      bulkOf({ systemDescriptors: [stein, sand, erde], hiddenDescriptorIds: [sand.id, erde.id] }),
    ).get('gestalt:3')
    expect(words?.visible.map((d) => d.word)).toEqual(['Stein'])
    expect(words?.all.map((d) => [d.word, d.hidden])).toEqual([
      ['Stein', false],
      ['Sand', true],
      ['Erde', true],
    ])
  })

  it('lists a word of several categories in each of them, hidden in all when hidden', () => {
    const weich = descriptor('weich', {
      perceptionId: 9,
      alsoIn: [
        { type: 'perception', id: 12 },
        { type: 'gestalt', id: 8 },
      ],
    })
    const hart = descriptor('hart', { perceptionId: 9, alsoIn: [{ type: 'perception', id: 12 }] })
    const rau = descriptor('rau', { perceptionId: 12 })
    const words = wordsByCategory(
      bulkOf({ systemDescriptors: [weich, hart, rau], hiddenDescriptorIds: [hart.id] }),
    )
    expect(words.get('perception:9')?.visible.map((d) => d.word)).toEqual(['weich'])
    expect(words.get('perception:12')?.visible.map((d) => d.word)).toEqual(['weich', 'rau'])
    expect(words.get('gestalt:8')?.visible.map((d) => d.word)).toEqual(['weich'])
    expect(words.get('perception:12')?.all.map((d) => [d.word, d.hidden])).toEqual([
      ['weich', false],
      ['hart', true],
      ['rau', false],
    ])
  })

  it('shows a drawn word under the trained category it stands in, else its first', () => {
    const weich = descriptor('weich', { perceptionId: 9, alsoIn: [{ type: 'perception', id: 12 }] })
    expect(categoryKeyOf(weich, new Set(['perception:12']))).toBe('perception:12')
    expect(categoryKeyOf(weich, new Set(['perception:9', 'perception:12']))).toBe('perception:9')
    expect(categoryKeyOf(weich, new Set(['gestalt:1']))).toBe('perception:9')
    expect(categoryKeyOf(descriptor('x'))).toBeNull()
  })

  it("adds the user's own words after the defaults, once even when approved", () => {
    const system = descriptor('kalt', { perceptionId: 14 })
    const approvedOwn = descriptor('eisig', {
      perceptionId: 14,
      isCustom: true,
      status: 'approved',
      createdBy: 'u1',
    })
    const pendingOwn = descriptor('frostig', {
      perceptionId: 14,
      isCustom: true,
      status: 'pending',
      createdBy: 'u1',
    })
    const words = wordsByCategory(
      bulkOf({
        systemDescriptors: [system, approvedOwn],
        userCustomDescriptors: [approvedOwn, pendingOwn],
      }),
    ).get('perception:14')
    expect(words?.visible.map((d) => d.word)).toEqual(['kalt', 'eisig', 'frostig'])
  })

  it('counts as own only a custom word the user created', () => {
    const mine = descriptor('mein', { isCustom: true, createdBy: 'u1' })
    expect(isOwnDescriptor(mine, 'u1')).toBe(true)
    expect(isOwnDescriptor(mine, 'u2')).toBe(false)
    expect(isOwnDescriptor(mine, null)).toBe(false)
    expect(isOwnDescriptor(descriptor('Stein'), 'u1')).toBe(false)
  })
})

describe('stage filter', () => {
  it('adds a stage in the trainer order and removes a chosen one', () => {
    expect(toggleStage(['Stage 1-2'], 'Stage 4-6')).toEqual(['Stage 1-2', 'Stage 4-6'])
    expect(toggleStage(['Stage 4-6'], 'Stage 1-2')).toEqual(['Stage 1-2', 'Stage 4-6'])
    expect(toggleStage(['Stage 1-2', 'Stage 2-3'], 'Stage 1-2')).toEqual(['Stage 2-3'])
  })

  it('keeps the last chosen stage', () => {
    expect(toggleStage(['Stage 2-3'], 'Stage 2-3')).toEqual(['Stage 2-3'])
  })
})

describe('selection', () => {
  const all = buildCategories(gestalts, perceptions)

  it('toggles a category in and out', () => {
    const once = toggleSelection(new Set(), 'gestalt:1')
    expect([...once]).toEqual(['gestalt:1'])
    expect([...toggleSelection(once, 'gestalt:1')]).toEqual([])
  })

  it('drops selected categories whose stage is no longer shown', () => {
    const selected = new Set(['gestalt:1', 'perception:11', 'perception:21'])
    const kept = keepShownSelection(selected, categoriesInStages(all, ['Stage 1-2', 'Stage 4-6']))
    expect([...kept].sort()).toEqual(['gestalt:1', 'perception:21'])
  })

  it('asks for the selected gestalts and perceptions, the stages and the language', () => {
    const shown = categoriesInStages(all, ['Stage 1-2', 'Stage 2-3'])
    const request = trainingRequest({
      selected: new Set(['gestalt:8', 'perception:11', 'perception:21']),
      shown,
      stages: ['Stage 1-2', 'Stage 2-3'],
      language: 'de',
      excludeId: 42,
    })
    expect(request).toEqual({
      gestaltIds: [8],
      perceptionIds: [11],
      stages: ['Stage 1-2', 'Stage 2-3'],
      language: 'de',
      excludeId: 42,
    })
  })

  it('has nothing to ask for when no shown category is selected', () => {
    const shown = categoriesInStages(all, ['Stage 1-2'])
    const request = trainingRequest({
      selected: new Set(['perception:21']),
      shown,
      stages: ['Stage 1-2'],
      language: 'en',
    })
    expect(request).toBeNull()
  })
})

describe('related descriptors', () => {
  it('reveals other words of the category, never the one on show, up to the limit', () => {
    const words = ['a', 'b', 'c', 'd', 'e'].map((w) => descriptor(w, { gestaltId: 1 }))
    const current = words[2]
    if (!current) throw new Error('no word')
    const related = relatedDescriptors(words, current, 3, () => 0.5)
    expect(related).toHaveLength(3)
    expect(related.map((d) => d.word)).not.toContain('c')
    expect(new Set(related.map((d) => d.id)).size).toBe(3)
    expect(
      relatedDescriptors(words, current, 10)
        .map((d) => d.word)
        .sort(),
    ).toEqual(['a', 'b', 'd', 'e'])
  })
})

describe('a word drawn on the device, offline', () => {
  const categories = buildCategories(gestalts, perceptions)
  const wasser = descriptor('Wasser', { gestaltId: 8 })
  const nass = descriptor('nass', { gestaltId: 8, alsoIn: [{ type: 'perception', id: 9 }] })
  const rot = descriptor('rot', { perceptionId: 11 })
  const words = wordsByCategory(bulkOf({ systemDescriptors: [wasser, nass, rot] }))
  const request = (fields: object) => ({
    gestaltIds: [],
    perceptionIds: [],
    stages: ['Stage 1-2' as const],
    language: 'de' as const,
    ...fields,
  })

  it('draws from the chosen categories of the chosen stages, never the word just shown', () => {
    const drawn = new Set<string>()
    for (let i = 0; i < 50; i++)
      drawn.add(
        drawLocally(request({ gestaltIds: [8], excludeId: wasser.id }), categories, words)?.word ??
          '',
      )
    expect(drawn).toEqual(new Set(['nass']))
    // Colours are Stage 2-3: not drawn while only Stage 1-2 is chosen.
    expect(drawLocally(request({ perceptionIds: [11] }), categories, words)).toBeNull()
    expect(
      drawLocally(request({ perceptionIds: [11], stages: ['Stage 2-3'] }), categories, words)?.word,
    ).toBe('rot')
  })

  it('counts a word of two chosen categories once', () => {
    const picks = [0, 0.49, 0.51, 0.99].map(
      (r) =>
        drawLocally(request({ gestaltIds: [8], perceptionIds: [9] }), categories, words, () => r)
          ?.word,
    )
    expect(picks).toEqual(['Wasser', 'Wasser', 'nass', 'nass'])
  })
})
