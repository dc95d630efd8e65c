// The example sentences shipped with the vocabulary (sentences.<lang>.csv, read by the ai
// service): every concept has at least two in each training language, each uses the concept's
// word (or a listed inflection of it) as a word of its own, and each is in its language.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseVocabularyCsv as parseCsv } from '@crv/kit'
import { DATA_DIR, loadVocabulary } from '../src/vocabulary/shipped.ts'

const TRAINING = ['en', 'de', 'fr', 'es', 'it'] as const
type Training = (typeof TRAINING)[number]

const vocabulary = loadVocabulary()

/** The letters each language writes, beyond a–z. */
const LETTERS: Record<Training, string> = {
  en: '',
  de: 'äöüß',
  fr: 'àâæçéèêëîïôœùûüÿ',
  es: 'áéíóúñü',
  it: 'àèéìíîòóùú',
}
/** Words that give away English left in another language's sentence. */
const ENGLISH = new Set(['the', 'and', 'with', 'is', 'are', 'of', 'this', 'that', 'there', 'feels'])

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** `form` inside `sentence` as whole word(s): no letter right before or after. */
const usesForm = (sentence: string, form: string) =>
  new RegExp(`(?<!\\p{L})${escape(form)}(?!\\p{L})`, 'u').test(sentence)

/**
 * An inflection keeps each word's stem: all but its last two letters, and at least three
 * ('froid' → 'froide', 'rau' → 'raue', 'scharf' → 'Scharfes'; not 'scharf' → 'schmecke').
 */
function isInflectionOf(form: string, word: string): boolean {
  const a = form.toLocaleLowerCase().split(/\s+/)
  const b = word.toLocaleLowerCase().split(/\s+/)
  const shared = (x: string, y: string) => {
    let n = 0
    while (n < x.length && x[n] === y[n]) n++
    return n
  }
  return (
    a.length === b.length &&
    a.every((w, i) => {
      const base = b[i] ?? ''
      return shared(w, base) >= Math.min(base.length, Math.max(3, base.length - 2))
    })
  )
}

describe('the checks themselves', () => {
  it('find a word only as a word of its own', () => {
    expect(usesForm('Le mot « cri » décrit la scène.', 'cri')).toBe(true)
    expect(usesForm('Il décrit la scène.', 'cri')).toBe(false)
    expect(usesForm('Die Oberfläche fühlt sich rau an.', 'rau')).toBe(true)
  })
  it('take agreement and endings as inflections, other words not', () => {
    expect(isInflectionOf('froide', 'froid')).toBe(true)
    expect(isInflectionOf('raue', 'rau')).toBe(true)
    expect(isInflectionOf('nach Fleisch', 'nach Fleisch')).toBe(true)
    expect(isInflectionOf('chaud', 'froid')).toBe(false)
    expect(isInflectionOf('sehr rau', 'rau')).toBe(false)
    expect(isInflectionOf('Scharfes', 'scharf')).toBe(true)
    expect(isInflectionOf('schmecke', 'scharf')).toBe(false)
  })
})

describe.each(TRAINING)('the example sentences in %s', (language) => {
  const file = join(DATA_DIR, `sentences.${language}.csv`)
  const rows = existsSync(file) ? parseCsv(readFileSync(file, 'utf8')) : []
  const byId = new Map<string, { form: string; sentence: string }[]>()
  for (const row of rows) {
    byId.set(row.id ?? '', [
      ...(byId.get(row.id ?? '') ?? []),
      { form: row.form ?? '', sentence: row.sentence ?? '' },
    ])
  }

  it('give every concept two different sentences or more, and no other ids', () => {
    expect(existsSync(file), file).toBe(true)
    const missing = vocabulary.concepts
      .filter((c) => new Set((byId.get(c.slug) ?? []).map((s) => s.sentence)).size < 2)
      .map((c) => c.slug)
    expect(missing).toEqual([])
    const known = new Set(vocabulary.concepts.map((c) => c.slug))
    expect([...byId.keys()].filter((id) => !known.has(id))).toEqual([])
  })

  it("use the concept's word, or an inflection of it, as a word of its own", () => {
    const wrong: string[] = []
    for (const concept of vocabulary.concepts) {
      const word = concept.words[language]?.word ?? ''
      for (const { form, sentence } of byId.get(concept.slug) ?? []) {
        if (!usesForm(sentence, form) || !isInflectionOf(form, word))
          wrong.push(`${concept.slug}: "${form}" for "${word}" in: ${sentence}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('are sentences of the language: its letters, no English left, capitalised and closed', () => {
    const letters = new RegExp(`^[a-z${LETTERS[language]}]+$`, 'u')
    const wrong: string[] = []
    for (const { sentence } of rows.map((r) => ({ sentence: r.sentence ?? '' }))) {
      const words = sentence.split(/[^\p{L}]+/u).filter(Boolean)
      const foreign = words.filter((w) => !letters.test(w.toLocaleLowerCase()))
      const english = language === 'en' ? [] : words.filter((w) => ENGLISH.has(w.toLowerCase()))
      const shape =
        /^[¿¡«\s]*\p{Lu}/u.test(sentence) &&
        /[.!?»]$/u.test(sentence) &&
        words.length >= 4 &&
        words.length <= 30
      if (foreign.length > 0 || english.length > 0 || !shape)
        wrong.push(`${[...foreign, ...english].join(',')} ${sentence}`)
    }
    expect(wrong).toEqual([])
  })
})
