// The descriptor match of a write-up against its target's tags (May, Utts, Humphrey, Luke,
// Frivold & Trask 1990), on concept ids: accuracy = tagged features described ÷ all tagged
// features, reliability = described features that are tagged ÷ all described features, figure of
// merit = accuracy × reliability.
import type { components } from '@crv/contracts'
import type { Vocabulary } from '../vocabulary.ts'

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

const GESTALTS = ['land', 'water', 'man-made', 'natural', 'biological', 'energy', 'motion', 'space']
const SENSORIES = Object.values(SENSORY_COLUMNS).filter((c) => c !== 'dimensionals')

/**
 * The Stage IV columns read for the score, each with the categories it draws from first where a
 * word names several concepts. AOL (the analytic overlay) is not among them: it is never scored.
 * AOL/S, the signal line the overlay came from, is.
 */
const MATRIX_COLUMNS = {
  S: SENSORIES,
  D: ['dimensionals'],
  AI: ['aesthetic-impact'],
  EI: ['emotional-impact'],
  T: ['tangibles'],
  I: ['intangibles'],
  AOLS: [],
} as const satisfies Record<string, readonly string[]>
type MatrixColumn = keyof typeof MATRIX_COLUMNS

const MAX_AOLS = 400
const MAX_AOL_LENGTH = 500
const MAX_UNMATCHED_LENGTH = 60

export interface Described {
  /** Concept ids, each once, in the order first described. */
  concepts: string[]
  /** Per column, the concept ids described there. */
  byColumn: Partial<Record<SensoryColumn, string[]>>
  /** Stage II entries and Stage IV D cells no concept of the vocabulary names (not scored). */
  unmatchedWords: string[]
  /** The parts of the write-up that had text, in page order (`stage2.colours`, `stage4.AOLS`). */
  scored: string[]
  /** The analytic overlays, as written; never read for concepts. */
  aols: string[]
}

const entryWord = (entry: string | { word: string; conceptId?: string }) =>
  typeof entry === 'string' ? entry : entry.word

const hasText = (text: string | undefined): text is string => !!text && text.trim() !== ''

/** What the write-up describes, as concept ids: every part of the page except its AOLs. */
export function describedConcepts(writeUp: WriteUp, vocabulary: Vocabulary): Described {
  const language = writeUp.language
  const reader = vocabulary.reader(language)
  const concepts = new Set<string>()
  const unmatched = new Set<string>()
  const byColumn = new Map<SensoryColumn, Set<string>>()
  const scored: string[] = []
  /** Reads one part of the page; where `listUnmatched`, a text naming no concept is listed. */
  const readTexts = (
    part: string,
    texts: (string | undefined)[],
    prefer: readonly string[],
    listUnmatched = false,
  ) => {
    const written = texts.filter(hasText)
    if (written.length === 0) return
    scored.push(part)
    for (const text of written) {
      const ids = reader.find(text, prefer)
      for (const id of ids) concepts.add(id)
      if (ids.length === 0 && listUnmatched) {
        unmatched.add(text.trim().slice(0, MAX_UNMATCHED_LENGTH))
      }
    }
  }

  const ideograms = writeUp.stage1?.ideograms ?? []
  readTexts(
    'stage1.a',
    ideograms.map((i) => i.a),
    ['first-feelings', 'first-motions'],
  )
  readTexts(
    'stage1.b',
    ideograms.map((i) => i.b),
    GESTALTS,
  )

  for (const [column, category] of Object.entries(SENSORY_COLUMNS) as [SensoryColumn, string][]) {
    const entries = (writeUp.stage2?.[column] ?? []).filter((e) => hasText(entryWord(e)))
    if (entries.length === 0) continue
    scored.push(`stage2.${column}`)
    for (const entry of entries) {
      const picked = typeof entry === 'string' ? undefined : entry.conceptId
      const word = entryWord(entry)
      let ids = picked && vocabulary.has(picked) ? [picked] : reader.find(word, [category])
      // An entry that is a vocabulary word counts even where free text would pass it by (a stop
      // word of the write-up's language that is a word of another).
      const whole = ids.length === 0 ? vocabulary.resolve(word, language, category) : null
      if (whole) ids = [whole]
      if (ids.length === 0) {
        unmatched.add(word.trim().slice(0, MAX_UNMATCHED_LENGTH))
        continue
      }
      let inColumn = byColumn.get(column)
      if (!inColumn) byColumn.set(column, (inColumn = new Set()))
      for (const id of ids) {
        concepts.add(id)
        inColumn.add(id)
      }
    }
  }

  readTexts('aestheticImpact', [writeUp.aestheticImpact], ['aesthetic-impact'])
  readTexts('stage3.notes', [writeUp.stage3?.notes], [])

  const rows = writeUp.stage4?.rows ?? []
  for (const [column, prefer] of Object.entries(MATRIX_COLUMNS) as [
    MatrixColumn,
    readonly string[],
  ][]) {
    // D cells are lists of dimensionals: each piece that names no concept is shown as unmatched.
    const texts =
      column === 'D'
        ? rows.flatMap((row) => (row.D ?? '').split(/[,;\n]/))
        : rows.map((row) => row[column])
    readTexts(`stage4.${column}`, texts, prefer, column === 'D')
  }

  const aols = [
    ...rows.map((row) => row.AOL),
    ...(writeUp.breaks ?? [])
      .filter((b) => b.kind === 'AOL' || b.kind === 'AOL_DRIVE')
      .map((b) => b.text),
  ]
    .filter(hasText)
    .map((text) => text.trim().slice(0, MAX_AOL_LENGTH))
    .slice(0, MAX_AOLS)

  return {
    concepts: [...concepts],
    byColumn: Object.fromEntries([...byColumn].map(([column, ids]) => [column, [...ids]])),
    unmatchedWords: [...unmatched].filter(Boolean),
    scored,
    aols,
  }
}

const round = (x: number) => Math.round(x * 10_000) / 10_000

function merit(concepts: string[], tags: string[]) {
  const tagged = new Set(tags)
  const matched = concepts.filter((id) => tagged.has(id))
  const accuracy = tags.length === 0 ? 0 : matched.length / tags.length
  const reliability = concepts.length === 0 ? 0 : matched.length / concepts.length
  return { tagged, matched, accuracy, reliability }
}

/** The figure of merit of a described write-up against one target's tags (cheap per target). */
export function figureOfMeritAgainst(described: Described, tags: string[]): number {
  const { accuracy, reliability } = merit(described.concepts, tags)
  return round(accuracy * reliability)
}

export function scoreWriteUp(writeUp: WriteUp, tags: string[], vocabulary: Vocabulary): Score {
  const described = describedConcepts(writeUp, vocabulary)
  const { tagged, matched, accuracy, reliability } = merit(described.concepts, tags)
  const describedIds = new Set(described.concepts)
  const missed = tags.filter((id) => !describedIds.has(id))
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
    scored: described.scored,
    aols: described.aols,
  }
}
