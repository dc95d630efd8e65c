// The vocabulary's concepts as a write-up's tag picker asks for them: by ids, or by a search.
import type { components } from '@crv/contracts'
import { LANGUAGES } from '../vocabulary.ts'
import type { Vocabulary } from '../vocabulary.ts'

type Schemas = components['schemas']

export interface ConceptQuery {
  ids?: string | undefined
  q?: string | undefined
  language?: Schemas['Language'] | undefined
  category?: string | undefined
  limit?: number | undefined
}

export function searchConcepts(vocabulary: Vocabulary, query: ConceptQuery) {
  const language = query.language && LANGUAGES.includes(query.language) ? query.language : 'en'
  const concepts = query.ids
    ? query.ids.split(',').flatMap((id) => vocabulary.get(id) ?? [])
    : vocabulary.search(query.q ?? '', {
        ...(query.category ? { category: query.category } : {}),
        limit: query.limit ?? 20,
      })
  return concepts.map((c) => ({
    conceptId: c.id,
    category: c.category,
    word: c.words[language] ?? c.words.en ?? c.id,
    words: c.words,
  }))
}
