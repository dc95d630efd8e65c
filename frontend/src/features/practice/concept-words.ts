import { skipToken } from '@reduxjs/toolkit/query'
import { useSearchPracticeConceptsQuery } from './api.ts'
import { practiceLanguage } from './preferences.ts'

/** At most this many concept ids a request names (the contract's limit). */
const PER_REQUEST = 100

/**
 * The words of the vocabulary's concepts in the interface language, by concept id, for showing
 * tags as words; an id stays as it is until its word arrives (or when the vocabulary lacks it).
 */
export function useConceptWords(ids: readonly string[]): (id: string) => string {
  const unique = [...new Set(ids)].sort().slice(0, PER_REQUEST)
  const { data = [] } = useSearchPracticeConceptsQuery(
    unique.length > 0 ? { ids: unique.join(','), language: practiceLanguage() } : skipToken,
  )
  const words = new Map(data.map((c) => [c.conceptId, c.word]))
  return (id) => words.get(id) ?? id
}
