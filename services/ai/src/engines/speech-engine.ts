import type { SpeechLanguage } from '../languages.ts'

/** Turns text into MP3. Engines differ in where the voice comes from, not in what they return. */
export interface SpeechEngine {
  /** Stable name, part of the cache key (with the voice): a new engine or setting re-synthesises. */
  readonly id: string
  voiceFor(language: SpeechLanguage): string
  synthesize(text: string, language: SpeechLanguage): Promise<Buffer>
  close?(): Promise<void>
}

/** Engines that speak from the text: how Japanese words written in kanji should be read. */
export type Reading = (text: string, language: SpeechLanguage) => string

export class SpeechEngineError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SpeechEngineError'
  }
}
