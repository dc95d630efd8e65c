import { describe, expect, it } from 'vitest'
import {
  exportLanguages,
  preferredLanguageKey,
  readPreferredLanguage,
  savePreferredLanguage,
  trainerLanguage,
  trainerLanguageWithReason,
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

describe('the language the trainer starts in', () => {
  it('is the choice made in the trainer, whatever the interface or the administrator says', () => {
    expect(trainerLanguage({ choice: 'it', interfaceLanguage: 'de', adminDefault: 'fr' })).toBe(
      'it',
    )
    expect(trainerLanguage({ choice: 'en', interfaceLanguage: 'de', adminDefault: 'fr' })).toBe(
      'en',
    )
  })

  it('else follows the interface language when the trainer offers it', () => {
    expect(trainerLanguage({ choice: null, interfaceLanguage: 'de', adminDefault: 'fr' })).toBe(
      'de',
    )
    expect(trainerLanguage({ choice: null, interfaceLanguage: 'es-MX', adminDefault: 'en' })).toBe(
      'es',
    )
  })

  it('else takes the administrator’s default: for English, Japanese or Chinese interfaces', () => {
    expect(trainerLanguage({ choice: null, interfaceLanguage: 'en', adminDefault: 'fr' })).toBe(
      'fr',
    )
    expect(trainerLanguage({ choice: null, interfaceLanguage: 'ja', adminDefault: 'it' })).toBe(
      'it',
    )
    expect(trainerLanguage({ choice: null, interfaceLanguage: 'zh', adminDefault: 'de' })).toBe(
      'de',
    )
  })

  it('else is English', () => {
    expect(
      trainerLanguage({ choice: null, interfaceLanguage: 'en', adminDefault: undefined }),
    ).toBe('en')
    expect(trainerLanguage({ choice: null, interfaceLanguage: 'ja', adminDefault: null })).toBe(
      'en',
    )
    expect(
      trainerLanguage({ choice: null, interfaceLanguage: undefined, adminDefault: null }),
    ).toBe('en')
  })
})

describe('why the trainer trains in its language', () => {
  const why = (
    choice: 'en' | 'de' | 'it' | null,
    interfaceLanguage: string | undefined,
    adminDefault: 'en' | 'fr' | 'it' | null,
  ) => {
    const { language, reason } = trainerLanguageWithReason({
      choice,
      interfaceLanguage,
      adminDefault,
    })
    return `${language} ${reason}`
  }

  it('names the choice, then the interface, then the default', () => {
    expect(why('it', 'ja', 'fr')).toBe('it chosen')
    expect(why(null, 'de-AT', 'fr')).toBe('de interface')
    expect(why(null, 'en', null)).toBe('en interface')
    expect(why(null, 'en', 'fr')).toBe('fr default')
    expect(why(null, undefined, null)).toBe('en default')
  })

  it('says the interface language has no descriptors when it is Japanese or Chinese', () => {
    expect(why(null, 'ja', null)).toBe('en notOffered')
    expect(why(null, 'zh-CN', 'it')).toBe('it notOffered')
    expect(
      trainerLanguageWithReason({ choice: null, interfaceLanguage: 'ja-JP', adminDefault: null })
        .interfaceLanguage,
    ).toBe('ja')
  })
})
