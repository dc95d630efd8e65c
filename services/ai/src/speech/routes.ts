import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { SpeechDeps } from '../deps.ts'
import { sentenceWithSpeechView } from './views.ts'

export function speechHandlers({ speech, sentences }: SpeechDeps): Handlers {
  return defineHandlers('ai', {
    synthesizeSpeech: async ({ body, reply }) => {
      const { mp3, cached } = await speech.speak(body.word.trim(), body.language)
      return reply
        .type('audio/mpeg')
        .header('x-speech-cache', cached ? 'hit' : 'miss')
        .header('cache-control', 'private, max-age=86400')
        .send(mp3)
    },

    generateSentenceWithSpeech: async ({ body, reply }) => {
      const sentence = await sentences.sentence(body.descriptor.trim(), body.language)
      const { mp3, cached } = await speech.speak(sentence, body.language)
      reply.header('x-speech-cache', cached ? 'hit' : 'miss')
      return sentenceWithSpeechView(sentence, mp3)
    },

    getSpeechQueue: () => speech.status(),
  })
}
