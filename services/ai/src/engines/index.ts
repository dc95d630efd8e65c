import type { AiConfig } from '../config.ts'
import type { WordFacts } from '../vocabulary.ts'
import { EspeakCliEngine } from './espeak-cli.ts'
import { EspeakWasmEngine } from './espeak-wasm.ts'
import { OpenAiSpeechEngine } from './openai-speech.ts'
import { PollyEngine } from './polly.ts'
import type { SpeechEngine } from './speech-engine.ts'

/** The configured speech engine (config validation has made sure a cloud one is configured). */
export function createSpeechEngine(config: AiConfig, facts: WordFacts): SpeechEngine {
  const reading = facts.reading
  switch (config.TTS_ENGINE) {
    case 'espeak-cli':
      return new EspeakCliEngine({
        path: config.ESPEAK_PATH,
        voice: config.TTS_VOICE,
        kbps: config.TTS_MP3_KBPS,
        reading,
      })
    case 'polly':
      return new PollyEngine({
        region: config.POLLY_REGION ?? '',
        endpoint: config.POLLY_ENDPOINT,
        engine: config.POLLY_ENGINE,
        voice: config.TTS_VOICE,
        timeoutMs: config.SPEECH_TIMEOUT_MS,
      })
    case 'openai':
      return new OpenAiSpeechEngine({
        url: config.OPENAI_TTS_URL ?? '',
        apiKey: config.OPENAI_TTS_API_KEY,
        model: config.OPENAI_TTS_MODEL,
        voice: config.TTS_VOICE,
        timeoutMs: config.SPEECH_TIMEOUT_MS,
      })
    case 'espeak':
      return new EspeakWasmEngine({ voice: config.TTS_VOICE, kbps: config.TTS_MP3_KBPS, reading })
  }
}

export type { SpeechEngine } from './speech-engine.ts'
