import initEspeak from '@echogarden/espeak-ng-emscripten'
import type { SpeechLanguage } from '../languages.ts'
import { encodeMp3, joinPcm, SAMPLE_RATE } from './mp3.ts'
import { SpeechEngineError } from './speech-engine.ts'
import type { Reading, SpeechEngine } from './speech-engine.ts'

/** eSpeak NG's voices per language; Chinese is Mandarin (`cmn`), Japanese is read from kana. */
export const ESPEAK_VOICES: Record<SpeechLanguage, string> = {
  en: 'en-us',
  de: 'de',
  fr: 'fr',
  es: 'es',
  it: 'it',
  ja: 'ja',
  zh: 'cmn',
}

interface EspeakWorker {
  set_voice(name: string): number
  synthesize(text: string, callback: (samples: Int16Array | null) => number | undefined): void
}
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker
}

let shared: Promise<EspeakWorker> | undefined

/** One synthesiser per process: starting one costs ~170 ms and a few MB. */
function worker(): Promise<EspeakWorker> {
  shared ??= (initEspeak as unknown as () => Promise<EspeakModule>)().then(
    (m) => new m.eSpeakNGWorker(),
  )
  return shared
}

/** eSpeak NG compiled to WebAssembly, in this process: the default, needs nothing installed. */
export class EspeakWasmEngine implements SpeechEngine {
  readonly id: string
  private readonly voice: string | undefined
  private readonly kbps: number
  private readonly reading: Reading

  constructor(options: { voice?: string | undefined; kbps: number; reading: Reading }) {
    this.voice = options.voice
    this.kbps = options.kbps
    this.reading = options.reading
    this.id = `espeak-ng-wasm/${options.kbps}k`
  }

  voiceFor(language: SpeechLanguage): string {
    return this.voice ?? ESPEAK_VOICES[language]
  }

  async synthesize(text: string, language: SpeechLanguage): Promise<Buffer> {
    const espeak = await worker()
    const voice = this.voiceFor(language)
    // Synthesis is synchronous inside the module, so set_voice and synthesize cannot interleave.
    if (espeak.set_voice(voice) !== 0)
      throw new SpeechEngineError(`eSpeak NG has no voice ${voice}`)
    const chunks: Int16Array[] = []
    espeak.synthesize(this.reading(text, language), (samples) => {
      if (samples && samples.length > 0) chunks.push(samples.slice())
      return 0
    })
    const pcm = joinPcm(chunks)
    if (pcm.length === 0) throw new SpeechEngineError('eSpeak NG produced no sound')
    return encodeMp3(pcm, SAMPLE_RATE, this.kbps)
  }
}

/** Loads the synthesiser now, so the first request does not pay for it. */
export async function warmUpEspeak(): Promise<void> {
  await worker()
}
