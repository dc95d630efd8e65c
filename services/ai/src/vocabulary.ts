// What the ai service needs from the descriptor vocabulary's files: each word's part of speech
// (to choose a sentence template), the kana reading of Japanese words (eSpeak NG reads kanji
// as "Chinese letter") and the reviewed example sentences of each concept. The files are read
// once, read-only; the descriptors service owns them.
import { VOCABULARY_LANGUAGES, readVocabularyCsv } from '@crv/kit'
import type { SpeechLanguage } from './languages.ts'

export type PartOfSpeech = 'noun' | 'adjective'

export interface WordFacts {
  partOfSpeech(word: string, language: SpeechLanguage): PartOfSpeech | undefined
  /** The text to speak: for Japanese the kana reading when the word is known. */
  reading(text: string, language: SpeechLanguage): string
  /** The vocabulary's words of one language, as written in its file. */
  words(language: SpeechLanguage): string[]
  /** The shipped example sentences of the word's concept in this language (none for others). */
  sentences(word: string, language: SpeechLanguage): readonly string[]
  readonly size: number
}

const fold = (word: string) => word.normalize('NFC').trim().toLocaleLowerCase()

/** Reads `vocabulary.<lang>.csv` from the directory; a missing directory gives empty facts. */
export function loadWordFacts(dir: string): WordFacts {
  const pos = new Map<string, PartOfSpeech>()
  const kana = new Map<string, string>()
  const words = new Map<SpeechLanguage, string[]>()
  const sentences = new Map<string, string[]>()
  for (const language of VOCABULARY_LANGUAGES) {
    const vocabulary = readVocabularyCsv(dir, `vocabulary.${language}.csv`)
    if (!vocabulary) continue
    const wordOf = new Map<string, string>()
    for (const row of vocabulary) {
      const word = row[language]
      const kind = row.pos
      if (!word) continue
      if (row.id) wordOf.set(row.id, word)
      words.set(language, [...(words.get(language) ?? []), word])
      if (kind === 'noun' || kind === 'adjective') pos.set(`${language}:${fold(word)}`, kind)
      if (language === 'ja' && row.ja_kana) kana.set(fold(word), row.ja_kana)
    }
    // sentences.<lang>.csv: id;form;sentence, two or more lines per concept.
    for (const row of readVocabularyCsv(dir, `sentences.${language}.csv`) ?? []) {
      const word = row.id ? wordOf.get(row.id) : undefined
      if (!word || !row.sentence) continue
      const key = `${language}:${fold(word)}`
      sentences.set(key, [...(sentences.get(key) ?? []), row.sentence])
    }
  }
  return {
    size: pos.size,
    partOfSpeech: (word, language) => pos.get(`${language}:${fold(word)}`),
    words: (language) => [...(words.get(language) ?? [])],
    sentences: (word, language) => sentences.get(`${language}:${fold(word)}`) ?? [],
    reading: (text, language) => (language === 'ja' ? (kana.get(fold(text)) ?? text) : text),
  }
}
