import { describe, expect, it } from 'vitest'
import {
  exportLanguages,
  preferredLanguageKey,
  readPreferredLanguage,
  savePreferredLanguage,
  trainingLanguages,
} from './languages.ts'

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial))
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  }
}

describe('trainer language', () => {
  it('trains in five languages and exports in seven', () => {
    expect(trainingLanguages.map((l) => l.code)).toEqual(['en', 'de', 'fr', 'es', 'it'])
    expect(exportLanguages.map((l) => l.code)).toEqual(['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'])
  })

  it('starts in English and remembers the chosen language as preferredLanguage', () => {
    const storage = memoryStorage()
    expect(readPreferredLanguage(storage)).toBe('en')
    savePreferredLanguage(storage, 'de')
    expect(storage.values.get(preferredLanguageKey)).toBe('de')
    expect(readPreferredLanguage(storage)).toBe('de')
  })

  it('ignores a stored language the trainer does not offer', () => {
    expect(readPreferredLanguage(memoryStorage({ preferredLanguage: 'ja' }))).toBe('en')
    expect(readPreferredLanguage(undefined)).toBe('en')
  })
})
