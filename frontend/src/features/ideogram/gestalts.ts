import type { components } from '@crv/contracts'
import type { CustomWord } from '../../lib/api/generated.ts'

/** A gestalt with a spoken clip of its own (the contract's enum; Man Made is `man`). */
type BasicGestaltId = components['schemas']['BasicGestaltId']

export type FrequencyLevel = 1 | 2 | 3

/** An ideogram word as the page holds it (spec §3). */
export type IdeogramWord = {
  id: string
  name: string
  selected: boolean
  playing: boolean
  probabilityLevel: FrequencyLevel
  custom: boolean
  /** Where the clip is: the gestalt's audio, or the custom word's download URL. */
  audioUrl: string
  /** The server's id of a custom word, for deleting it. */
  customWordId?: number
}

export const frequencyLevels: readonly FrequencyLevel[] = [1, 2, 3]
export const joinedSequenceLength = 3
export const customGestaltMaxLength = 30
export const playbackNoticeMs = 3000

const basic = (id: BasicGestaltId, name: string): IdeogramWord => ({
  id,
  name,
  selected: false,
  playing: false,
  probabilityLevel: 1,
  custom: false,
  audioUrl: `/api/audio/${id}`,
})

/** The seven basic gestalts, in the grid's order. */
export const basicGestalts: readonly IdeogramWord[] = [
  basic('biological', 'Biological'),
  basic('energy', 'Energy'),
  basic('land', 'Land'),
  basic('man', 'Man Made'),
  basic('motion', 'Motion'),
  basic('natural', 'Natural'),
  basic('space', 'Space'),
]

/** Added to the list once unlocked (spec §3, §4). */
export const waterGestalt: IdeogramWord = basic('water', 'Water')

/** Custom words are known by 'custom-' and their audio URL (spec §3). */
export const customWordId = (audioUrl: string) => `custom-${audioUrl}`

export function customIdeogramWord(word: CustomWord): IdeogramWord {
  return {
    id: customWordId(word.audioUrl),
    name: word.word,
    selected: false,
    playing: false,
    probabilityLevel: 1,
    custom: true,
    audioUrl: word.audioUrl,
    customWordId: word.id,
  }
}

/** The browser's list of deleted custom gestalts (spec §3). */
export const deletedGestaltsKey = 'crv-training-deleted-gestalts'

type Store = Pick<Storage, 'getItem' | 'setItem'>

export function readDeletedGestalts(storage: Store | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(deletedGestaltsKey) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter((id) => typeof id === 'string') : []
  } catch {
    return []
  }
}

export function rememberDeletedGestalt(storage: Store | undefined, id: string): void {
  const ids = readDeletedGestalts(storage)
  if (ids.includes(id)) return
  try {
    storage?.setItem(deletedGestaltsKey, JSON.stringify([...ids, id]))
  } catch {
    // The server has deleted it anyway; the list only hides it sooner.
  }
}

export function localStorageOrNothing(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}
