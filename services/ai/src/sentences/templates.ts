// Curated example sentences (spec §2 'Example Sentence'), chosen by the descriptor's part of
// speech. Nouns are quoted or follow a colon, so no article or gender has to be guessed;
// adjectives are predicative after masculine subjects, so the vocabulary's (masculine) form
// agrees; adjectives that are really phrases ('qui glisse', 'nach Knoblauch', 'che respira')
// only fit after 'something' or a colon and get templates of their own.
import type { TrainingLanguage } from '../languages.ts'
import type { PartOfSpeech } from '../vocabulary.ts'

export type TemplateForm = 'noun' | 'adjective' | 'phrase' | 'neutral'

const NBSP = '\u00a0'

export const TEMPLATES: Record<TrainingLanguage, Record<TemplateForm, readonly string[]>> = {
  en: {
    adjective: [
      'The target feels {w}.',
      'Everything at the site seems {w}.',
      'My first impression is that the place is {w}.',
    ],
    noun: [
      'The word “{w}” describes what I perceive.',
      'My first impression of the target: {w}.',
      'When I focus on the target, the word “{w}” comes to mind.',
    ],
    phrase: ['My first impression of the target: {w}.', 'One descriptor for the site: {w}.'],
    neutral: [
      'The word “{w}” describes part of the target.',
      'When I focus on the target, the word “{w}” comes to mind.',
    ],
  },
  de: {
    adjective: [
      'Das Ziel wirkt {w}.',
      'Alles am Zielort scheint {w} zu sein.',
      'Mein erster Eindruck: Der Ort ist {w}.',
    ],
    noun: [
      'Das Wort „{w}“ beschreibt, was ich wahrnehme.',
      'Mein erster Eindruck vom Ziel: {w}.',
      'Beim Blick auf das Ziel kommt mir das Wort „{w}“ in den Sinn.',
    ],
    phrase: ['Mein erster Eindruck vom Ziel: {w}.', 'Ein Deskriptor für den Zielort: {w}.'],
    neutral: [
      'Das Wort „{w}“ beschreibt einen Teil des Ziels.',
      'Beim Blick auf das Ziel kommt mir das Wort „{w}“ in den Sinn.',
    ],
  },
  fr: {
    adjective: [
      'Le lieu semble {w}.',
      'Tout ici paraît {w}.',
      `Ma première impression${NBSP}: c'est {w}.`,
    ],
    noun: [
      `Le mot «${NBSP}{w}${NBSP}» décrit ce que je perçois.`,
      `Ma première impression de la cible${NBSP}: {w}.`,
      `En me concentrant sur la cible, je pense au mot «${NBSP}{w}${NBSP}».`,
    ],
    phrase: [
      `Ma première impression de la cible${NBSP}: quelque chose {w}.`,
      'Je perçois quelque chose {w}.',
    ],
    neutral: [
      `Le mot «${NBSP}{w}${NBSP}» décrit une partie de la cible.`,
      `En me concentrant sur la cible, je pense au mot «${NBSP}{w}${NBSP}».`,
    ],
  },
  es: {
    adjective: ['El lugar parece {w}.', 'Todo aquí parece {w}.', 'Percibo algo {w}.'],
    noun: [
      'La palabra «{w}» describe lo que percibo.',
      'Mi primera impresión del objetivo: {w}.',
      'Al concentrarme en el objetivo, pienso en la palabra «{w}».',
    ],
    // Also smells and tastes ('a pescado'), which fit neither 'parece' nor 'algo'.
    phrase: ['Mi primera impresión del objetivo: {w}.', 'Un descriptor para el lugar: {w}.'],
    neutral: [
      'La palabra «{w}» describe una parte del objetivo.',
      'Al concentrarme en el objetivo, pienso en la palabra «{w}».',
    ],
  },
  it: {
    adjective: [
      'Il luogo sembra {w}.',
      'Tutto qui appare {w}.',
      'La mia prima impressione: il target è {w}.',
    ],
    noun: [
      'La parola «{w}» descrive ciò che percepisco.',
      'La mia prima impressione del target: {w}.',
      'Concentrandomi sul target, penso alla parola «{w}».',
    ],
    phrase: ['Percepisco qualcosa {w}.', 'La mia prima impressione del target: qualcosa {w}.'],
    neutral: [
      'La parola «{w}» descrive una parte del target.',
      'Concentrandomi sul target, penso alla parola «{w}».',
    ],
  },
}

/**
 * Adjectives that cannot stand after 'seems': smells ('nach Knoblauch'), relative clauses
 * ('qui glisse', 'che respira'), participles ('se balançant') and 'of/with' phrases.
 */
const PHRASE_ADJECTIVE: Record<TrainingLanguage, RegExp | null> = {
  en: null,
  de: /^(nach|zum|zur|sich)\s/i,
  fr: /^(qui|se|s'|de|d'|au|aux|comme)(\s|(?<=')\S)/i,
  es: /^(que|con|de|del|al|color)\s|^a\s(?!la\s)/i,
  it: /^(che|di|d'|al|alla|alle|allo|all'|con|come|color)(\s|(?<=')\S)/i,
}

export function templateForm(
  word: string,
  language: TrainingLanguage,
  partOfSpeech: PartOfSpeech | undefined,
): TemplateForm {
  if (partOfSpeech === 'noun') return 'noun'
  if (partOfSpeech === 'adjective') {
    return PHRASE_ADJECTIVE[language]?.test(word) ? 'phrase' : 'adjective'
  }
  return 'neutral'
}

export const render = (template: string, word: string) => template.replace('{w}', word)
