// The descriptor match of a write-up against its target's tags (May, Utts, Humphrey, Luke,
// Frivold & Trask 1990), on concept ids: accuracy = tagged features described ÷ all tagged
// features, reliability = described features that are tagged ÷ all described features, figure of
// merit = accuracy × reliability.
import type { components } from '@crv/contracts'
import type { Language, Vocabulary } from './vocabulary.ts'

type Schemas = components['schemas']
export type WriteUp = Schemas['PracticeWriteUp']
export type Score = Schemas['PracticeScore']

/** The write-up's sensory columns and the vocabulary category each one draws from. */
export const SENSORY_COLUMNS = {
  colours: 'colors',
  textures: 'textures',
  temperatures: 'temperatures',
  sounds: 'sounds',
  smells: 'smells',
  tastes: 'tastes',
  luminance: 'brightness',
  energetics: 'energetics',
  dimensionals: 'dimensionals',
} as const
export type SensoryColumn = keyof typeof SENSORY_COLUMNS

export interface Described {
  /** Concept ids, each once, in the order first described. */
  concepts: string[]
  /** Per column, the concept ids described there. */
  byColumn: Partial<Record<SensoryColumn, string[]>>
  /** Words no concept of the vocabulary names (they are not scored). */
  unmatchedWords: string[]
}

const entryWord = (entry: string | { word: string; conceptId?: string }) =>
  typeof entry === 'string' ? entry : entry.word

/** What the write-up describes, as concept ids: Stage II's columns and Stage IV's D column. */
export function describedConcepts(writeUp: WriteUp, vocabulary: Vocabulary): Described {
  const language = writeUp.language as Language | undefined
  const seen = new Set<string>()
  const concepts: string[] = []
  const unmatched = new Set<string>()
  const byColumn: Described['byColumn'] = {}
  const add = (id: string) => {
    if (seen.has(id)) return
    seen.add(id)
    concepts.push(id)
  }
  for (const [column, category] of Object.entries(SENSORY_COLUMNS) as [SensoryColumn, string][]) {
    for (const entry of writeUp.stage2?.[column] ?? []) {
      const picked = typeof entry === 'string' ? undefined : entry.conceptId
      const id =
        picked && vocabulary.has(picked)
          ? picked
          : vocabulary.resolve(entryWord(entry), language, category)
      if (!id) {
        unmatched.add(entryWord(entry).trim())
        continue
      }
      add(id)
      const list = (byColumn[column] ??= [])
      if (!list.includes(id)) list.push(id)
    }
  }
  for (const row of writeUp.stage4?.rows ?? []) {
    for (const word of (row.D ?? '').split(/[,;\n]/)) {
      if (!word.trim()) continue
      const id = vocabulary.resolve(word, language, 'dimensionals')
      if (id) add(id)
      else unmatched.add(word.trim())
    }
  }
  return { concepts, byColumn, unmatchedWords: [...unmatched].filter(Boolean) }
}

const round = (x: number) => Math.round(x * 10_000) / 10_000

export function scoreWriteUp(writeUp: WriteUp, tags: string[], vocabulary: Vocabulary): Score {
  const described = describedConcepts(writeUp, vocabulary)
  const tagged = new Set(tags)
  const matched = described.concepts.filter((id) => tagged.has(id))
  const missed = tags.filter((id) => !described.concepts.includes(id))
  const accuracy = tags.length === 0 ? 0 : matched.length / tags.length
  const reliability =
    described.concepts.length === 0 ? 0 : matched.length / described.concepts.length
  const byCategory: NonNullable<Score['byCategory']> = {}
  for (const [column, ids] of Object.entries(described.byColumn)) {
    byCategory[column] = {
      described: ids.length,
      matched: ids.filter((id) => tagged.has(id)).length,
    }
  }
  return {
    accuracy: round(accuracy),
    reliability: round(reliability),
    figureOfMerit: round(accuracy * reliability),
    described: described.concepts,
    matched,
    missed,
    unmatchedWords: described.unmatchedWords.slice(0, 2000),
    byCategory,
  }
}
