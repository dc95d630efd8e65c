import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { ConfigError } from '@crv/kit'
import { EspeakCliEngine } from '../src/engines/espeak-cli.ts'
import { EspeakWasmEngine } from '../src/engines/espeak-wasm.ts'
import { OpenAiSpeechEngine } from '../src/engines/openai-speech.ts'
import { PollyEngine } from '../src/engines/polly.ts'
import { SpeechEngineError } from '../src/engines/speech-engine.ts'
import { loadAiConfig } from '../src/config.ts'
import { speechLanguages } from '../src/languages.ts'
import { loadWordFacts } from '../src/vocabulary.ts'
import { AUDIBLE_RMS, decodeMp3, espeakProgramInstalled, SAMPLE_WORDS, standIn } from './helpers.ts'

const facts = loadWordFacts(fileURLToPath(new URL('../../descriptors/data', import.meta.url)))

describe('eSpeak NG in-process', () => {
  const engine = new EspeakWasmEngine({ kbps: 40, reading: facts.reading })

  it.each(speechLanguages)('speaks %s as MP3 that decodes to audible speech', async (language) => {
    const mp3 = await engine.synthesize(SAMPLE_WORDS[language], language)
    const audio = await decodeMp3(mp3)
    expect(audio.sampleRate).toBe(22_050)
    expect(audio.seconds).toBeGreaterThan(0.2)
    expect(audio.rms).toBeGreaterThan(AUDIBLE_RMS)
    // Small enough to cache every word: a word is a few KB.
    expect(mp3.length).toBeLessThan(8 * 1024)
  })

  it('reads Japanese kanji from the vocabulary kana, not as "Chinese letter"', async () => {
    const fromKanji = await decodeMp3(await engine.synthesize('動物', 'ja'))
    const fromKana = await decodeMp3(await engine.synthesize('どうぶつ', 'ja'))
    const unread = await decodeMp3(
      await new EspeakWasmEngine({ kbps: 40, reading: (t) => t }).synthesize('動物', 'ja'),
    )
    expect(Math.abs(fromKanji.seconds - fromKana.seconds)).toBeLessThan(0.03)
    expect(unread.seconds).toBeGreaterThan(fromKana.seconds + 0.3)
  })

  it('picks a voice per language: Mandarin for Chinese', () => {
    expect(engine.voiceFor('zh')).toBe('cmn')
    expect(engine.voiceFor('de')).toBe('de')
  })
})

describe.skipIf(!espeakProgramInstalled())('the espeak-ng program', () => {
  const engine = new EspeakCliEngine({ path: 'espeak-ng', kbps: 40, reading: facts.reading })

  it.each(speechLanguages)('speaks %s as MP3 that decodes to audible speech', async (language) => {
    const audio = await decodeMp3(await engine.synthesize(SAMPLE_WORDS[language], language))
    expect(audio.seconds).toBeGreaterThan(0.2)
    expect(audio.rms).toBeGreaterThan(AUDIBLE_RMS)
  })

  it('uses the pinyin Mandarin voice (the program’s zh voice is broken)', () => {
    expect(engine.voiceFor('zh')).toBe('cmn-latn-pinyin')
  })

  it('takes text that looks like an option as text', async () => {
    const audio = await decodeMp3(await engine.synthesize('--version', 'en'))
    expect(audio.seconds).toBeGreaterThan(0.2)
  })

  it('fails clearly when the program is missing', async () => {
    const missing = new EspeakCliEngine({
      path: 'no-such-espeak',
      kbps: 40,
      reading: facts.reading,
    })
    await expect(missing.check()).rejects.toThrow(/cannot run no-such-espeak/)
  })
})

describe('cloud engines against local stand-ins', () => {
  let polly: { app: FastifyInstance; url: string }
  let openai: { app: FastifyInstance; url: string }
  const seen: { polly: Record<string, unknown>[]; openai: { body: unknown; auth: unknown }[] } = {
    polly: [],
    openai: [],
  }
  let clip: Buffer

  beforeAll(async () => {
    clip = await new EspeakWasmEngine({ kbps: 40, reading: facts.reading }).synthesize(
      'water',
      'en',
    )
    polly = await standIn(
      (app) => {
        // Polly's REST API: POST /v1/speech with a JSON body, the audio stream as the response.
        app.post('/v1/speech', async (request, reply) => {
          seen.polly.push(request.body as Record<string, unknown>)
          return reply.type('audio/mpeg').send(clip)
        })
      },
      { http2: true },
    )
    openai = await standIn((app) => {
      app.post('/v1/audio/speech', async (request, reply) => {
        seen.openai.push({ body: request.body, auth: request.headers.authorization })
        const input = (request.body as { input: string }).input
        if (input === 'fail') return reply.code(500).send({ error: { message: 'model crashed' } })
        return reply.type('audio/mpeg').send(clip)
      })
    })
  })
  afterAll(async () => {
    await polly.app.close()
    await openai.app.close()
  })

  it('Polly: asks for MP3 at 22.05 kHz in the language’s voice and returns its audio', async () => {
    const engine = new PollyEngine({
      region: 'eu-west-1',
      endpoint: polly.url,
      engine: 'neural',
      timeoutMs: 5_000,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    })
    const mp3 = await engine.synthesize('Wasser', 'de')
    expect(mp3.equals(clip)).toBe(true)
    expect(seen.polly.at(-1)).toMatchObject({
      Text: 'Wasser',
      OutputFormat: 'mp3',
      SampleRate: '22050',
      VoiceId: 'Vicki',
      LanguageCode: 'de-DE',
      Engine: 'neural',
    })
    await engine.close()
  })

  it('OpenAI-compatible: posts model, voice and text with the key, returns the MP3', async () => {
    const engine = new OpenAiSpeechEngine({
      url: `${openai.url}/v1`,
      apiKey: 'sk-test',
      model: 'kokoro',
      voice: 'af_bella',
      timeoutMs: 5_000,
    })
    const mp3 = await engine.synthesize('moving water', 'en')
    expect((await decodeMp3(mp3)).seconds).toBeGreaterThan(0.2)
    expect(seen.openai.at(-1)).toEqual({
      body: { model: 'kokoro', input: 'moving water', voice: 'af_bella', response_format: 'mp3' },
      auth: 'Bearer sk-test',
    })
  })

  it('OpenAI-compatible: a failing server is an engine error naming the status', async () => {
    const engine = new OpenAiSpeechEngine({ url: openai.url, model: 'tts-1', timeoutMs: 5_000 })
    await expect(engine.synthesize('fail', 'en')).rejects.toThrow(SpeechEngineError)
    await expect(engine.synthesize('fail', 'en')).rejects.toThrow(/answered 500/)
  })
})

describe('engine configuration', () => {
  it('offers a cloud engine only when it is configured, with a message naming what is missing', () => {
    expect(() => loadAiConfig({ TTS_ENGINE: 'polly' })).toThrow(ConfigError)
    expect(() => loadAiConfig({ TTS_ENGINE: 'polly' })).toThrow(/POLLY_REGION/)
    expect(() => loadAiConfig({ TTS_ENGINE: 'openai' })).toThrow(/OPENAI_TTS_URL/)
    expect(() => loadAiConfig({ SENTENCE_ENGINE: 'openai' })).toThrow(
      /OPENAI_CHAT_URL[\s\S]*OPENAI_CHAT_MODEL/,
    )
    expect(() => loadAiConfig({ TTS_ENGINE: 'cloud' })).toThrow(/TTS_ENGINE/)
    expect(loadAiConfig({ TTS_ENGINE: 'polly', POLLY_REGION: 'eu-west-1' }).TTS_ENGINE).toBe(
      'polly',
    )
    expect(loadAiConfig({}).TTS_ENGINE).toBe('espeak')
  })
})
