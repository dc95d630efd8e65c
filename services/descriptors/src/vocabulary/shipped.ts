// The shipped vocabulary, read from data/: categories.json, categories.<lang>.csv,
// vocabulary.<lang>.csv (English is the master list; the others add their column by id) and
// memberships.csv (further categories of a word the manual lists in several).
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseVocabularyCsv, VOCABULARY_LANGUAGES } from '@crv/kit'
import type { VocabularyLanguage } from '@crv/kit'

export const LANGUAGES = VOCABULARY_LANGUAGES
export type Language = VocabularyLanguage
export const STAGES = ['Stage 1-2', 'Stage 2-3', 'Stage 4-6'] as const
export type Stage = (typeof STAGES)[number]

export const DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url))

export interface CategoryData {
  slug: string
  type: 'gestalt' | 'perception'
  stage: Stage
  position: number
  names: Partial<Record<Language, { name: string; description: string }>>
}

export interface ConceptData {
  slug: string
  category: string
  pos: 'adjective' | 'noun' | 'verb'
  /** Further categories the word stands in (data/memberships.csv), besides `category`. */
  also: string[]
  words: Partial<Record<Language, { word: string; reading?: string }>>
}

export interface Vocabulary {
  categories: CategoryData[]
  concepts: ConceptData[]
  languages: Language[]
  /** Changes whenever any data file changes: the seed runs again only then. */
  hash: string
}

export function loadVocabulary(dir = DATA_DIR): Vocabulary {
  const hash = createHash('sha256')
  const read = (file: string) => {
    const text = readFileSync(join(dir, file), 'utf8')
    hash.update(file).update(text)
    return text
  }
  const raw = JSON.parse(read('categories.json')) as {
    id: string
    type: 'gestalt' | 'perception'
    stage: Stage
    name: string
    description: string
  }[]
  const categories: CategoryData[] = raw.map((c, position) => ({
    slug: c.id,
    type: c.type,
    stage: c.stage,
    position,
    names: { en: { name: c.name, description: c.description } },
  }))
  const bySlug = new Map(categories.map((c) => [c.slug, c]))
  const concepts: ConceptData[] = parseVocabularyCsv(read('vocabulary.en.csv')).map((row) => ({
    slug: row.id ?? '',
    category: row.category ?? '',
    pos: (row.pos ?? 'noun') as ConceptData['pos'],
    also: [],
    words: { en: { word: row.en ?? '' } },
  }))
  const conceptBySlug = new Map(concepts.map((c) => [c.slug, c]))
  if (existsSync(join(dir, 'memberships.csv'))) {
    for (const row of parseVocabularyCsv(read('memberships.csv'))) {
      const concept = conceptBySlug.get(row.id ?? '')
      // An unknown id or category, or the concept's own, is refused by the data test.
      if (concept && row.category && bySlug.has(row.category) && row.category !== concept.category)
        if (!concept.also.includes(row.category)) concept.also.push(row.category)
    }
  }
  const languages: Language[] = ['en']
  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    if (!existsSync(join(dir, `vocabulary.${language}.csv`))) continue
    languages.push(language)
    for (const row of parseVocabularyCsv(read(`vocabulary.${language}.csv`))) {
      const concept = conceptBySlug.get(row.id ?? '')
      const word = row[language]
      if (!concept || !word) continue
      concept.words[language] = { word, ...(row.ja_kana ? { reading: row.ja_kana } : {}) }
    }
    if (existsSync(join(dir, `categories.${language}.csv`))) {
      for (const row of parseVocabularyCsv(read(`categories.${language}.csv`))) {
        const category = bySlug.get(row.id ?? '')
        if (category && row.name)
          category.names[language] = { name: row.name, description: row.description ?? '' }
      }
    }
  }
  return { categories, concepts, languages, hash: hash.digest('hex') }
}

/**
 * Lower case without accents: 'Café' and 'cafe' are one word for search and duplicates. Only
 * marks on Latin letters go; Japanese voicing marks (が and か differ) are kept.
 */
export function foldWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/([A-Za-z\u00c0-\u024f])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
}
