import type { SpeechLanguage } from '../languages.ts'
import { SpeechEngineError } from './speech-engine.ts'
import type { SpeechEngine } from './speech-engine.ts'

/** `https://host` and `https://host/v1` both name the same API root. */
export function openAiEndpoint(base: string, path: string): string {
  let root = base
  while (root.endsWith('/')) root = root.slice(0, -1)
  return root.endsWith('/v1') ? `${root}${path}` : `${root}/v1${path}`
}

const MAX_AUDIO_BYTES = 10 * 1024 * 1024

export interface OpenAiSpeechOptions {
  url: string
  apiKey?: string | undefined
  model: string
  voice?: string | undefined
  timeoutMs: number
}

/**
 * Any server with OpenAI's `/v1/audio/speech` (OpenAI itself, or self-hosted Kokoro or Piper
 * behind an OpenAI-compatible front). The models are multilingual: the text decides the language.
 */
export class OpenAiSpeechEngine implements SpeechEngine {
  readonly id: string
  private readonly options: OpenAiSpeechOptions

  constructor(options: OpenAiSpeechOptions) {
    this.options = options
    this.id = `openai/${options.model}`
  }

  voiceFor(_language: SpeechLanguage): string {
    return this.options.voice ?? 'alloy'
  }

  async synthesize(text: string, language: SpeechLanguage): Promise<Buffer> {
    let res: Response
    try {
      res = await fetch(openAiEndpoint(this.options.url, '/audio/speech'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          input: text,
          voice: this.voiceFor(language),
          response_format: 'mp3',
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      })
    } catch (err) {
      throw new SpeechEngineError(`speech server unreachable: ${(err as Error).message}`)
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).slice(0, 200)
      throw new SpeechEngineError(`speech server answered ${res.status}: ${detail}`)
    }
    const body = Buffer.from(await res.arrayBuffer())
    if (body.length === 0 || body.length > MAX_AUDIO_BYTES) {
      throw new SpeechEngineError(`speech server returned ${body.length} bytes of audio`)
    }
    return body
  }
}
