// What the ai service needs from the descriptor vocabulary's files: each word's part of speech
// (to choose a sentence template) and the kana reading of Japanese words (eSpeak NG reads kanji
// as "Chinese letter"). The files are read once, read-only; the descriptors service owns them.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SpeechLanguage } from './languages.ts'

export type PartOfSpeech = 'noun' | 'adjective'

export interface WordFacts {
  partOfSpeech(word: string, language: SpeechLanguage): PartOfSpeech | undefined
  /** The text to speak: for Japanese the kana reading when the word is known. */
  reading(text: string, language: SpeechLanguage): string
  /** The vocabulary's words of one language, as written in its file. */
  words(language: SpeechLanguage): string[]
  readonly size: number
}

const fold = (word: string) => word.normalize('NFC').trim().toLocaleLowerCase()

function rows(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
  const header = (lines.shift() ?? '').split(';')
  return lines.map((line) => {
    const cells = line.split(';')
    return Object.fromEntries(header.map((name, i) => [name, (cells[i] ?? '').trim()]))
  })
}

/** Reads `vocabulary.<lang>.csv` from the directory; a missing directory gives empty facts. */
export function loadWordFacts(dir: string): WordFacts {
  const pos = new Map<string, PartOfSpeech>()
  const kana = new Map<string, string>()
  const words = new Map<SpeechLanguage, string[]>()
  for (const language of ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const) {
    const file = join(dir, `vocabulary.${language}.csv`)
    if (!existsSync(file)) continue
    for (const row of rows(readFileSync(file, 'utf8'))) {
      const word = row[language]
      const kind = row.pos
      if (!word) continue
      words.set(language, [...(words.get(language) ?? []), word])
      if (kind === 'noun' || kind === 'adjective') pos.set(`${language}:${fold(word)}`, kind)
      if (language === 'ja' && row.ja_kana) kana.set(fold(word), row.ja_kana)
    }
  }
  return {
    size: pos.size,
    partOfSpeech: (word, language) => pos.get(`${language}:${fold(word)}`),
    words: (language) => [...(words.get(language) ?? [])],
    reading: (text, language) => (language === 'ja' ? (kana.get(fold(text)) ?? text) : text),
  }
}
