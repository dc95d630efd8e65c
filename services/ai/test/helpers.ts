import { spawnSync } from 'node:child_process'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import { MPEGDecoder } from 'mpg123-decoder'

export interface DecodedAudio {
  seconds: number
  rms: number
  sampleRate: number
}

/** Decodes MP3 the way a browser would, and measures what a listener would notice. */
export async function decodeMp3(mp3: Uint8Array): Promise<DecodedAudio> {
  const decoder = new MPEGDecoder()
  await decoder.ready
  try {
    const out = decoder.decode(new Uint8Array(mp3))
    const samples = out.channelData[0] ?? new Float32Array()
    let sum = 0
    for (const s of samples) sum += s * s
    return {
      seconds: out.samplesDecoded / out.sampleRate,
      rms: Math.sqrt(sum / Math.max(1, samples.length)),
      sampleRate: out.sampleRate,
    }
  } finally {
    decoder.free()
  }
}

/** Spoken audio: long enough for a word and clearly above silence (RMS of full scale 1.0). */
export const AUDIBLE_RMS = 0.01

export const espeakProgramInstalled = () =>
  spawnSync('espeak-ng', ['--version'], { stdio: 'ignore' }).status === 0

/** A local stand-in for a server outside the machine (Polly, an OpenAI-compatible server). */
export async function standIn(
  setup: (app: FastifyInstance) => void,
  options: { http2?: boolean } = {},
): Promise<{ app: FastifyInstance; url: string }> {
  // The AWS SDK's Polly client speaks HTTP/2 (cleartext with a plain http:// endpoint).
  const app = (
    options.http2
      ? Fastify({ logger: false, http2: true, bodyLimit: 1024 * 1024 })
      : Fastify({ logger: false, bodyLimit: 1024 * 1024 })
  ) as FastifyInstance
  setup(app)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return { app, url: `http://127.0.0.1:${address.port}` }
}

/** A word in each language's vocabulary; French 'eau' is too short to pass for a word. */
export const SAMPLE_WORDS = {
  en: 'water',
  de: 'Wasser',
  fr: 'rugueux',
  es: 'agua',
  it: 'acqua',
  ja: '動物',
  zh: '动物',
} as const

export async function waitFor(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
