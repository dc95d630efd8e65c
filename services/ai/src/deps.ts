// What the ai service's routes are given, built once in app.ts (types only: no import circles).
import type { SentenceEngine } from './sentences/sentence-engine.ts'
import type { SpeechService } from './speech/speech.ts'

export interface SpeechDeps {
  speech: SpeechService
  /** Example sentences: the reviewed ones of vocabulary words, else the chat server or templates. */
  sentences: SentenceEngine
}
