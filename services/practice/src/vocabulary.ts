// The descriptor vocabulary as scoring needs it: concept ids with their words in seven languages,
// so a German write-up scores against English-tagged targets. The files are read once, read-only;
// the descriptors service owns them (the ai service reads them the same way).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

export interface Concept {
  id: string
  category: string
  words: Partial<Record<Language, string>>
}

/** A word folded for lookup: no accents, lower case, single spaces. */
export function foldWord(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

function rows(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
  const header = (lines.shift() ?? '').split(';')
  return lines.map((line) => {
    const cells = line.split(';')
    return Object.fromEntries(header.map((name, i) => [name, (cells[i] ?? '').trim()]))
  })
}

export class Vocabulary {
  private readonly concepts = new Map<string, Concept>()
  /** Folded word → concept ids, per language. */
  private readonly byWord = new Map<string, string[]>()

  constructor(concepts: Concept[]) {
    for (const concept of concepts) {
      this.concepts.set(concept.id, concept)
      for (const [language, word] of Object.entries(concept.words)) {
        const key = `${language}:${foldWord(word)}`
        this.byWord.set(key, [...(this.byWord.get(key) ?? []), concept.id])
      }
    }
  }

  get size(): number {
    return this.concepts.size
  }

  has(id: string): boolean {
    return this.concepts.has(id)
  }

  get(id: string): Concept | undefined {
    return this.concepts.get(id)
  }

  /**
   * The concept a written word names: in the write-up's language first, then in any language;
   * where a word names several concepts, the one in `preferCategory` if there is one.
   */
  resolve(word: string, language: Language | undefined, preferCategory?: string): string | null {
    const folded = foldWord(word)
    if (!folded) return null
    const order = language ? [language, ...LANGUAGES.filter((l) => l !== language)] : LANGUAGES
    for (const lang of order) {
      const ids = this.byWord.get(`${lang}:${folded}`)
      if (!ids || ids.length === 0) continue
      const preferred = preferCategory
        ? ids.find((id) => this.concepts.get(id)?.category === preferCategory)
        : undefined
      return preferred ?? ids[0] ?? null
    }
    return null
  }

  /** Concepts whose word in any language starts with (first) or contains `query`. */
  search(query: string, options: { category?: string; limit: number }): Concept[] {
    const q = foldWord(query)
    const starts: Concept[] = []
    const contains: Concept[] = []
    for (const concept of this.concepts.values()) {
      if (options.category && concept.category !== options.category) continue
      if (!q) {
        starts.push(concept)
        continue
      }
      const folded = Object.values(concept.words).map((w) => foldWord(w))
      if (folded.some((w) => w.startsWith(q))) starts.push(concept)
      else if (folded.some((w) => w.includes(q))) contains.push(concept)
    }
    return [...starts, ...contains].slice(0, options.limit)
  }
}

/** Reads `vocabulary.<lang>.csv` from the directory (the English file names every concept). */
export function loadVocabulary(dir: string): Vocabulary {
  const concepts = new Map<string, Concept>()
  for (const language of LANGUAGES) {
    const file = join(dir, `vocabulary.${language}.csv`)
    if (!existsSync(file)) continue
    for (const row of rows(readFileSync(file, 'utf8'))) {
      const id = row.id
      const word = row[language]
      if (!id || !word) continue
      const concept = concepts.get(id) ?? { id, category: row.category ?? '', words: {} }
      concept.words[language] = word
      concepts.set(id, concept)
    }
  }
  return new Vocabulary([...concepts.values()])
}
