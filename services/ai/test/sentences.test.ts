import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { trainingLanguages } from '../src/languages.ts'
import type { TrainingLanguage } from '../src/languages.ts'
import {
  OpenAiSentenceEngine,
  ShippedSentenceEngine,
  TemplateSentenceEngine,
} from '../src/sentences/sentence-engine.ts'
import { render, TEMPLATES, templateForm } from '../src/sentences/templates.ts'
import type { TemplateForm } from '../src/sentences/templates.ts'
import { loadWordFacts } from '../src/vocabulary.ts'
import { standIn } from './helpers.ts'

const facts = loadWordFacts(fileURLToPath(new URL('../../descriptors/data', import.meta.url)))

/** Sample words of each kind, as the vocabulary writes them. */
const SAMPLES: Record<TrainingLanguage, Record<TemplateForm, string>> = {
  en: { noun: 'animal', adjective: 'cold', phrase: 'dark red', neutral: 'moving water' },
  de: { noun: 'Tier', adjective: 'drückend heiß', phrase: 'nach Knoblauch', neutral: 'Nebelwand' },
  fr: { noun: 'animal', adjective: 'en vie', phrase: 'qui glisse', neutral: 'brume' },
  es: { noun: 'animal', adjective: 'orgánico', phrase: 'que respira', neutral: 'niebla' },
  it: { noun: 'animale', adjective: 'in movimento', phrase: 'che respira', neutral: 'nebbia' },
}

/**
 * Every template rendered with the sample of its kind, read and checked by a speaker of each
 * language. A new or changed template fails here until its sentence is added and reviewed.
 */
const REVIEWED: Record<TrainingLanguage, string[]> = {
  en: [
    'The target feels cold.',
    'Everything at the site seems cold.',
    'My first impression is that the place is cold.',
    'The word “animal” describes what I perceive.',
    'My first impression of the target: animal.',
    'When I focus on the target, the word “animal” comes to mind.',
    'My first impression of the target: dark red.',
    'One descriptor for the site: dark red.',
    'The word “moving water” describes part of the target.',
    'When I focus on the target, the word “moving water” comes to mind.',
  ],
  de: [
    'Das Ziel wirkt drückend heiß.',
    'Alles am Zielort scheint drückend heiß zu sein.',
    'Mein erster Eindruck: Der Ort ist drückend heiß.',
    'Das Wort „Tier“ beschreibt, was ich wahrnehme.',
    'Mein erster Eindruck vom Ziel: Tier.',
    'Beim Blick auf das Ziel kommt mir das Wort „Tier“ in den Sinn.',
    'Mein erster Eindruck vom Ziel: nach Knoblauch.',
    'Ein Deskriptor für den Zielort: nach Knoblauch.',
    'Das Wort „Nebelwand“ beschreibt einen Teil des Ziels.',
    'Beim Blick auf das Ziel kommt mir das Wort „Nebelwand“ in den Sinn.',
  ],
  fr: [
    'Le lieu semble en vie.',
    'Tout ici paraît en vie.',
    "Ma première impression\u00a0: c'est en vie.",
    'Le mot «\u00a0animal\u00a0» décrit ce que je perçois.',
    'Ma première impression de la cible\u00a0: animal.',
    'En me concentrant sur la cible, je pense au mot «\u00a0animal\u00a0».',
    'Ma première impression de la cible\u00a0: quelque chose qui glisse.',
    'Je perçois quelque chose qui glisse.',
    'Le mot «\u00a0brume\u00a0» décrit une partie de la cible.',
    'En me concentrant sur la cible, je pense au mot «\u00a0brume\u00a0».',
  ],
  es: [
    'El lugar parece orgánico.',
    'Todo aquí parece orgánico.',
    'Percibo algo orgánico.',
    'La palabra «animal» describe lo que percibo.',
    'Mi primera impresión del objetivo: animal.',
    'Al concentrarme en el objetivo, pienso en la palabra «animal».',
    'Mi primera impresión del objetivo: que respira.',
    'Un descriptor para el lugar: que respira.',
    'La palabra «niebla» describe una parte del objetivo.',
    'Al concentrarme en el objetivo, pienso en la palabra «niebla».',
  ],
  it: [
    'Il luogo sembra in movimento.',
    'Tutto qui appare in movimento.',
    'La mia prima impressione: il target è in movimento.',
    'La parola «animale» descrive ciò che percepisco.',
    'La mia prima impressione del target: animale.',
    'Concentrandomi sul target, penso alla parola «animale».',
    'Percepisco qualcosa che respira.',
    'La mia prima impressione del target: qualcosa che respira.',
    'La parola «nebbia» descrive una parte del target.',
    'Concentrandomi sul target, penso alla parola «nebbia».',
  ],
}

const FORMS: TemplateForm[] = ['adjective', 'noun', 'phrase', 'neutral']

describe('sentence templates', () => {
  it.each(trainingLanguages)('%s: every template renders to its reviewed sentence', (language) => {
    const rendered = FORMS.flatMap((form) =>
      TEMPLATES[language][form].map((t) => render(t, SAMPLES[language][form])),
    )
    expect(rendered).toEqual(REVIEWED[language])
  })

  it.each(trainingLanguages)(
    '%s: every vocabulary word gets a sentence that contains it once, capitalised and closed',
    async (language) => {
      const words = vocabularyWords(language)
      expect(words.length).toBeGreaterThan(900)
      for (const [index, word] of words.entries()) {
        // Each template in turn, so all of them meet real words.
        const engine = new TemplateSentenceEngine(facts, () => (index % 7) / 7)
        const sentence = await engine.sentence(word, language)
        // Once as a word of its own ('cri' inside 'décrit' does not count).
        const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        const alone = new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, 'gu')
        expect(sentence.match(alone)?.length ?? 0, sentence).toBe(1)
        expect(sentence, sentence).toMatch(/^\p{Lu}/u)
        expect(sentence, sentence).toMatch(/[.»“]$/u)
        expect(sentence, sentence).not.toMatch(/\{w\}| {2}| [.,:]/u)
      }
    },
  )

  it('chooses by part of speech from the vocabulary, and phrases that cannot follow "seems"', () => {
    expect(templateForm('Tier', 'de', facts.partOfSpeech('Tier', 'de'))).toBe('noun')
    expect(templateForm('kalt', 'de', facts.partOfSpeech('kalt', 'de'))).toBe('adjective')
    expect(templateForm('nach Knoblauch', 'de', 'adjective')).toBe('phrase')
    expect(templateForm('qui glisse', 'fr', 'adjective')).toBe('phrase')
    expect(templateForm("d'agrumes", 'fr', 'adjective')).toBe('phrase')
    expect(templateForm('che respira', 'it', 'adjective')).toBe('phrase')
    expect(templateForm('in movimento', 'it', 'adjective')).toBe('adjective')
    expect(templateForm('a la deriva', 'es', 'adjective')).toBe('adjective')
    expect(templateForm('con bultos', 'es', 'adjective')).toBe('phrase')
    // Smells and tastes: never 'El lugar parece a pescado'.
    expect(templateForm('a pescado', 'es', 'adjective')).toBe('phrase')
    expect(templateForm('a frutos secos', 'es', 'adjective')).toBe('phrase')
    // A custom descriptor the vocabulary does not know: the neutral, quoting templates.
    expect(templateForm('Nebelwand', 'de', facts.partOfSpeech('Nebelwand', 'de'))).toBe('neutral')
  })

  it('looks words up case-insensitively in their own language only', () => {
    expect(facts.partOfSpeech('ANIMAL', 'en')).toBe('noun')
    expect(facts.partOfSpeech('Tier', 'en')).toBeUndefined()
  })
})

describe('the shipped example sentences', () => {
  it.each(trainingLanguages)(
    '%s: every vocabulary word answers one of its own reviewed sentences',
    async (language) => {
      const templates = new TemplateSentenceEngine(facts, () => 0)
      for (const [index, word] of facts.words(language).entries()) {
        const shipped = facts.sentences(word, language)
        expect(shipped.length, `${language} ${word}`).toBeGreaterThanOrEqual(2)
        const engine = new ShippedSentenceEngine(facts, templates, () => (index % 5) / 5)
        expect(shipped).toContain(await engine.sentence(word, language))
      }
    },
  )

  it('looks a word up whatever its case, and gives a custom word to the fallback', async () => {
    const asked: string[] = []
    const fallback = {
      id: 'stand-in',
      sentence: async (word: string) => {
        asked.push(word)
        return `fallback for ${word}`
      },
    }
    const engine = new ShippedSentenceEngine(facts, fallback, () => 0)
    expect(facts.sentences('cold', 'en')).toContain(await engine.sentence('COLD', 'en'))
    expect(await engine.sentence('Nebelwand', 'de')).toBe('fallback for Nebelwand')
    // A German word asked for in English is not the English concept's.
    expect(await engine.sentence('kalt', 'en')).toBe('fallback for kalt')
    expect(asked).toEqual(['Nebelwand', 'kalt'])
    expect(engine.id).toBe('shipped+stand-in')
  })
})

describe('OpenAI-compatible sentence engine against a local stand-in', () => {
  let server: { app: FastifyInstance; url: string }
  let answer = ''
  let asked: { model?: string; messages?: { content: string }[] } = {}
  beforeAll(async () => {
    server = await standIn((app) => {
      app.post('/v1/chat/completions', async (request, reply) => {
        asked = request.body as typeof asked
        if (answer === 'FAIL') return reply.code(503).send({ error: 'overloaded' })
        return { choices: [{ message: { role: 'assistant', content: answer } }] }
      })
    })
  })
  afterAll(() => server.app.close())

  const engine = (fallbacks: string[]) =>
    new OpenAiSentenceEngine({
      url: server.url,
      model: 'llama',
      timeoutMs: 5_000,
      fallback: new TemplateSentenceEngine(facts, () => 0),
      onFallback: (reason) => fallbacks.push(reason),
    })

  it('uses the chat answer when it is one sentence with the word', async () => {
    answer = '"Die Luft am Ort ist kalt und feucht."'
    const fallbacks: string[] = []
    expect(await engine(fallbacks).sentence('kalt', 'de')).toBe(
      'Die Luft am Ort ist kalt und feucht.',
    )
    expect(asked.model).toBe('llama')
    expect(asked.messages?.[1]?.content).toContain('German')
    expect(asked.messages?.[1]?.content).toContain('"kalt"')
    expect(fallbacks).toEqual([])
  })

  it('falls back to a template when the answer lacks the word or the server fails', async () => {
    const fallbacks: string[] = []
    answer = 'Sure! Here is a sentence.'
    expect(await engine(fallbacks).sentence('kalt', 'de')).toBe('Das Ziel wirkt kalt.')
    answer = 'FAIL'
    expect(await engine(fallbacks).sentence('kalt', 'de')).toBe('Das Ziel wirkt kalt.')
    expect(fallbacks).toHaveLength(2)
    expect(fallbacks[1]).toMatch(/503/)
  })
})

const vocabularyWords = (language: TrainingLanguage) => facts.words(language)
