import { spawn } from 'node:child_process'
import type { SpeechLanguage } from '../languages.ts'
import { encodeMp3, wavToPcm } from './mp3.ts'
import { ESPEAK_VOICES } from './espeak-wasm.ts'
import { SpeechEngineError } from './speech-engine.ts'
import type { Reading, SpeechEngine } from './speech-engine.ts'

/** The program's own `zh` voice is broken; its pinyin Mandarin voice works. */
const CLI_VOICES: Record<SpeechLanguage, string> = { ...ESPEAK_VOICES, zh: 'cmn-latn-pinyin' }

const MAX_WAV_BYTES = 20 * 1024 * 1024

/** The `espeak-ng` program (e.g. a distribution's package with its full voice data). */
export class EspeakCliEngine implements SpeechEngine {
  readonly id: string
  private readonly path: string
  private readonly voice: string | undefined
  private readonly kbps: number
  private readonly reading: Reading

  constructor(options: {
    path: string
    voice?: string | undefined
    kbps: number
    reading: Reading
  }) {
    this.path = options.path
    this.voice = options.voice
    this.kbps = options.kbps
    this.reading = options.reading
    this.id = `espeak-ng-cli/${options.kbps}k`
  }

  voiceFor(language: SpeechLanguage): string {
    return this.voice ?? CLI_VOICES[language]
  }

  async synthesize(text: string, language: SpeechLanguage): Promise<Buffer> {
    const wav = await this.run(
      ['-v', this.voiceFor(language), '--stdout'],
      this.reading(text, language),
    )
    const { pcm, sampleRate } = wavToPcm(wav)
    if (pcm.length === 0) throw new SpeechEngineError('espeak-ng produced no sound')
    return encodeMp3(pcm, sampleRate, this.kbps)
  }

  /** Checks at start that the program runs, so a wrong ESPEAK_PATH is found at once. */
  async check(): Promise<void> {
    await this.run(['--version'], '')
  }

  private run(args: string[], input: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      // The text goes on stdin: never as an argument, where a leading '-' would be an option.
      const child = spawn(this.path, args, { stdio: ['pipe', 'pipe', 'pipe'] })
      const out: Buffer[] = []
      let size = 0
      let errText = ''
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_WAV_BYTES) child.kill('SIGKILL')
        else out.push(chunk)
      })
      child.stderr.on('data', (chunk: Buffer) => {
        errText = (errText + chunk.toString()).slice(-500)
      })
      child.on('error', (err) =>
        reject(new SpeechEngineError(`cannot run ${this.path}: ${err.message}`)),
      )
      child.on('close', (code) => {
        if (code === 0) resolve(Buffer.concat(out))
        else
          reject(
            new SpeechEngineError(`${this.path} failed (${code ?? 'killed'}): ${errText.trim()}`),
          )
      })
      child.stdin.end(input)
    })
  }
}
