import { PollyClient, SynthesizeSpeechCommand } from '@aws-sdk/client-polly'
import type { Engine, LanguageCode, VoiceId } from '@aws-sdk/client-polly'
import type { SpeechLanguage } from '../languages.ts'
import { SpeechEngineError } from './speech-engine.ts'
import type { SpeechEngine } from './speech-engine.ts'

/** Voices that exist for both Polly engines (standard and neural) in each language. */
const POLLY_VOICES: Record<SpeechLanguage, { voice: VoiceId; code: LanguageCode }> = {
  en: { voice: 'Joanna', code: 'en-US' },
  de: { voice: 'Vicki', code: 'de-DE' },
  fr: { voice: 'Lea', code: 'fr-FR' },
  es: { voice: 'Lucia', code: 'es-ES' },
  it: { voice: 'Bianca', code: 'it-IT' },
  ja: { voice: 'Takumi', code: 'ja-JP' },
  zh: { voice: 'Zhiyu', code: 'cmn-CN' },
}

export interface PollyOptions {
  region: string
  endpoint?: string | undefined
  engine: Engine
  voice?: string | undefined
  timeoutMs: number
  /** Credentials come from the AWS default chain unless given (tests). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/** Amazon Polly: MP3 straight from the service at 22.05 kHz. */
export class PollyEngine implements SpeechEngine {
  readonly id: string
  private readonly client: PollyClient
  private readonly options: PollyOptions

  constructor(options: PollyOptions) {
    this.options = options
    this.id = `polly-${options.engine}`
    this.client = new PollyClient({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: 2,
    })
  }

  voiceFor(language: SpeechLanguage): string {
    return this.options.voice ?? POLLY_VOICES[language].voice
  }

  async synthesize(text: string, language: SpeechLanguage): Promise<Buffer> {
    try {
      const out = await this.client.send(
        new SynthesizeSpeechCommand({
          Text: text,
          TextType: 'text',
          OutputFormat: 'mp3',
          SampleRate: '22050',
          Engine: this.options.engine,
          VoiceId: this.voiceFor(language) as VoiceId,
          LanguageCode: POLLY_VOICES[language].code,
        }),
        { abortSignal: AbortSignal.timeout(this.options.timeoutMs) },
      )
      const bytes = await out.AudioStream?.transformToByteArray()
      if (!bytes || bytes.length === 0) throw new SpeechEngineError('Polly returned no audio')
      return Buffer.from(bytes)
    } catch (err) {
      if (err instanceof SpeechEngineError) throw err
      throw new SpeechEngineError(`Polly failed: ${(err as Error).message}`)
    }
  }

  async close(): Promise<void> {
    this.client.destroy()
  }
}
