import { describe, expect, it } from 'vitest'
import {
  basicGestalts,
  customIdeogramWord,
  deletedGestaltsKey,
  readDeletedGestalts,
  rememberDeletedGestalt,
  waterGestalt,
} from './gestalts.ts'

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  }
}

describe('ideogram words', () => {
  it('are the seven basic gestalts, Man Made among them, and Water at level 1', () => {
    expect(basicGestalts.map((g) => g.id)).toEqual([
      'biological',
      'energy',
      'land',
      'man',
      'motion',
      'natural',
      'space',
    ])
    expect(basicGestalts.find((g) => g.id === 'man')?.name).toBe('Man Made')
    expect(waterGestalt).toMatchObject({
      id: 'water',
      name: 'Water',
      selected: false,
      playing: false,
      probabilityLevel: 1,
    })
  })

  it("gives a custom word the id 'custom-' and its audio URL", () => {
    const audioUrl = '/api/storage/o/custom_audio%2Fu%2Fabc.mp3?alt=media'
    expect(
      customIdeogramWord({ id: 7, word: 'moving water', audioUrl, userId: 'u' }),
    ).toMatchObject({
      id: `custom-${audioUrl}`,
      name: 'moving water',
      custom: true,
      customWordId: 7,
    })
  })

  it('remembers deleted custom gestalts under crv-training-deleted-gestalts', () => {
    const storage = memoryStorage()
    expect(readDeletedGestalts(storage)).toEqual([])
    rememberDeletedGestalt(storage, 'custom-a')
    rememberDeletedGestalt(storage, 'custom-a')
    rememberDeletedGestalt(storage, 'custom-b')
    expect(JSON.parse(storage.items.get(deletedGestaltsKey) ?? '')).toEqual([
      'custom-a',
      'custom-b',
    ])
    expect(readDeletedGestalts(memoryStorage({ [deletedGestaltsKey]: 'not json' }))).toEqual([])
    expect(readDeletedGestalts(memoryStorage({ [deletedGestaltsKey]: '{"a":1}' }))).toEqual([])
  })
})
