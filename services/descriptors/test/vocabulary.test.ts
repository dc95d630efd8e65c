// The shipped vocabulary, as files a reviewer reads: complete in every language, no
// word shared by two concepts, words of a sane length, readings for Japanese speech.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseVocabularyCsv as parseCsv } from '@crv/kit'
import { DATA_DIR, LANGUAGES, loadVocabulary } from '../src/vocabulary/shipped.ts'

const vocabulary = loadVocabulary()
const english = parseCsv(readFileSync(join(DATA_DIR, 'vocabulary.en.csv'), 'utf8'))

describe('the vocabulary files', () => {
  it('cover all seven languages', () => {
    expect(vocabulary.languages.sort()).toEqual([...LANGUAGES].sort())
  })

  it('hold at least 600 concepts, each with a word in every language', () => {
    expect(vocabulary.concepts.length).toBeGreaterThanOrEqual(600)
    for (const concept of vocabulary.concepts) {
      for (const language of LANGUAGES)
        expect(concept.words[language]?.word, `${concept.slug} ${language}`).toBeTruthy()
    }
  })

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    'list the English ids in order, unchanged, in %s',
    (language) => {
      const rows = parseCsv(readFileSync(join(DATA_DIR, `vocabulary.${language}.csv`), 'utf8'))
      expect(rows.map((r) => [r.id, r.category, r.pos, r.en])).toEqual(
        english.map((r) => [r.id, r.category, r.pos, r.en]),
      )
    },
  )

  it('link every concept to a defined category, with a part of speech', () => {
    const slugs = new Set(vocabulary.categories.map((c) => c.slug))
    for (const concept of vocabulary.concepts) {
      expect(slugs.has(concept.category), concept.slug).toBe(true)
      expect(['adjective', 'noun', 'verb']).toContain(concept.pos)
    }
    expect(new Set(vocabulary.concepts.map((c) => c.slug)).size).toBe(vocabulary.concepts.length)
  })

  it('list further categories of known concepts, each new to its concept (memberships.csv)', () => {
    const lines = readFileSync(join(DATA_DIR, 'memberships.csv'), 'utf8')
    expect(lines.split('\n')[0]).toBe('id;category')
    const rows = parseCsv(lines)
    const categories = new Set(vocabulary.categories.map((c) => c.slug))
    const concepts = new Map(vocabulary.concepts.map((c) => [c.slug, c]))
    const seen = new Set<string>()
    for (const { id = '', category = '' } of rows) {
      const concept = concepts.get(id)
      expect(concept, `unknown concept ${id}`).toBeDefined()
      expect(categories.has(category), `unknown category ${category}`).toBe(true)
      expect(category, `${id} is already in ${category}`).not.toBe(concept?.category)
      expect(seen.has(`${id}|${category}`), `${id} twice in ${category}`).toBe(false)
      seen.add(`${id}|${category}`)
    }
    // The words the manual lists in Textures and in Dimensionals (issue [13]).
    for (const id of ['soft', 'hard', 'wet', 'dry', 'flat'])
      expect(concepts.get(id)?.also, id).toEqual(
        expect.arrayContaining(['textures', 'dimensionals']),
      )
    expect(rows.length).toBe(vocabulary.concepts.reduce((n, c) => n + c.also.length, 0))
  })

  it.each(LANGUAGES)(
    'have no duplicate, empty or over-long words within a category in %s',
    (language) => {
      const seen = new Map<string, string>()
      for (const concept of vocabulary.concepts) {
        const word = concept.words[language]?.word ?? ''
        expect(word.length, `${concept.slug} ${language}`).toBeGreaterThan(0)
        expect(word.length, `${concept.slug} ${language}`).toBeLessThanOrEqual(40)
        expect(word).toBe(word.trim())
        expect(word, `${concept.slug} ${language}`).not.toMatch(/[;"\t]/)
        // Case-insensitive; accents count (étoile and étoilé are two words).
        const key = `${concept.category}|${word.normalize('NFC').toLowerCase()}`
        expect(seen.get(key), `${word} in ${concept.category} (${language})`).toBeUndefined()
        seen.set(key, concept.slug)
      }
    },
  )

  it.each(LANGUAGES)('give each concept a word of its own in %s', (language) => {
    // A trainee who reads 'ondulé' must know whether it was wavy or corrugated.
    const owner = new Map<string, string>()
    const shared: string[] = []
    for (const concept of vocabulary.concepts) {
      const word = (concept.words[language]?.word ?? '').normalize('NFC').toLowerCase()
      const other = owner.get(word)
      if (other) shared.push(`${word}: ${other} and ${concept.slug}`)
      else owner.set(word, concept.slug)
    }
    expect(shared).toEqual([])
  })

  it('spell English the American way, as the data README asks', () => {
    const british = new RegExp(
      [
        '(colo|odo|flavo|harbo|armo|humo|savo|vapo|rumo)ur',
        'grey',
        'ochre',
        '(cent|met|thea|fib|somb|lust)re',
        'aluminium',
        'mould',
        '(travel|spiral|signal|label|model|level|fuel|channel|tunnel|swivel|marvel|jewel|shovel)l',
        'defence',
        'jewellery',
        'tyre',
        'storey',
      ].join('|'),
    )
    const found = vocabulary.concepts
      .map((c) => c.words.en?.word ?? '')
      .filter((w) => british.test(w))
    expect(found).toEqual([])
  })

  it('give every Japanese word a kana reading for speech', () => {
    for (const concept of vocabulary.concepts) {
      expect(concept.words.ja?.reading, concept.slug).toMatch(/^[\u3040-\u30ffー\s]+$/u)
    }
  })

  it('name every category in every language', () => {
    for (const category of vocabulary.categories) {
      for (const language of LANGUAGES)
        expect(category.names[language]?.name, `${category.slug} ${language}`).toBeTruthy()
    }
    expect(vocabulary.categories.filter((c) => c.type === 'gestalt').map((c) => c.slug)).toEqual([
      'biological',
      'energy',
      'land',
      'man-made',
      'motion',
      'natural',
      'space',
      'water',
    ])
  })

  it('contain nothing but the files the loaders read', () => {
    const expected = new Set([
      'README.md',
      'categories.json',
      'memberships.csv',
      ...LANGUAGES.map((l) => `vocabulary.${l}.csv`),
      ...LANGUAGES.filter((l) => l !== 'en').map((l) => `categories.${l}.csv`),
      // Example sentences of the training languages, read by the ai service.
      ...['en', 'de', 'fr', 'es', 'it'].map((l) => `sentences.${l}.csv`),
    ])
    for (const file of readdirSync(DATA_DIR)) expect(expected.has(file), file).toBe(true)
  })
})
