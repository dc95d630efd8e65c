import { Mp3Encoder } from '@breezystack/lamejs'

/** eSpeak NG's output rate; mono at this rate keeps a spoken word around 2 KB of MP3. */
export const SAMPLE_RATE = 22_050

/** 16-bit mono PCM to MP3 (a new encoder per clip: an encoder keeps state across a flush). */
export function encodeMp3(pcm: Int16Array, sampleRate: number, kbps: number): Buffer {
  const encoder = new Mp3Encoder(1, sampleRate, kbps)
  const parts: Buffer[] = []
  // lamejs hands out Int8Arrays; blocks of 1152 × 16 samples keep its buffers small.
  const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  const block = 1152 * 16
  for (let i = 0; i < pcm.length; i += block) {
    parts.push(bytes(encoder.encodeBuffer(pcm.subarray(i, i + block))))
  }
  parts.push(bytes(encoder.flush()))
  return Buffer.concat(parts)
}

/** Joins the chunks a synthesiser hands out into one buffer. */
export function joinPcm(chunks: Int16Array[]): Int16Array {
  const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/** The samples of a 16-bit PCM mono WAV file (what `espeak-ng --stdout` writes). */
export function wavToPcm(wav: Buffer): { pcm: Int16Array; sampleRate: number } {
  if (
    wav.length < 12 ||
    wav.toString('ascii', 0, 4) !== 'RIFF' ||
    wav.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new Error('not a WAV file')
  }
  let offset = 12
  let sampleRate = 0
  let bits = 0
  let channels = 0
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4)
    let size = wav.readUInt32LE(offset + 4)
    const body = offset + 8
    if (id === 'fmt ') {
      channels = wav.readUInt16LE(body + 2)
      sampleRate = wav.readUInt32LE(body + 4)
      bits = wav.readUInt16LE(body + 14)
    } else if (id === 'data') {
      if (bits !== 16 || channels !== 1)
        throw new Error(`unsupported WAV (${bits} bit, ${channels} channels)`)
      // espeak-ng writing to a pipe cannot seek back: its data size field is left at 0x7fffffff.
      if (body + size > wav.length) size = wav.length - body
      const samples = new Int16Array(Math.floor(size / 2))
      for (let i = 0; i < samples.length; i++) samples[i] = wav.readInt16LE(body + i * 2)
      return { pcm: samples, sampleRate }
    }
    offset = body + size + (size % 2)
  }
  throw new Error('WAV file without data')
}
