import type { components } from '@crv/contracts'

type Schemas = components['schemas']

/** A sentence and its MP3, in one JSON answer. */
export const sentenceWithSpeechView = (
  sentence: string,
  mp3: Buffer,
): Schemas['SentenceWithSpeech'] => ({ sentence, audioData: mp3.toString('base64') })
