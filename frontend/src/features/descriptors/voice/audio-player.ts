// Speech plays through the Web Audio API (DESIGN.md §2): the MP3 is decoded into an AudioBuffer
// and started on the AudioContext, never through an <audio> element.

let context: AudioContext | null = null
let current: AudioBufferSourceNode | null = null

/** One context for the page, created on first use (ideally inside a click: autoplay rules). */
export function audioContext(): AudioContext {
  context ??= new AudioContext()
  return context
}

/** Lets a later, timer-started playback sound: call from a user gesture such as Start. */
export function unlockAudio(): void {
  void audioContext()
    .resume()
    .catch(() => {})
}

/** Decodes and plays MP3 bytes; resolves when the sound has ended (or was stopped). */
export async function playMp3(bytes: ArrayBuffer): Promise<void> {
  const ctx = audioContext()
  if (ctx.state === 'suspended') await ctx.resume()
  const buffer = await ctx.decodeAudioData(bytes)
  stopPlayback()
  const source = ctx.createBufferSource()
  source.buffer = buffer
  source.connect(ctx.destination)
  current = source
  await new Promise<void>((resolve) => {
    source.onended = () => {
      if (current === source) current = null
      resolve()
    }
    source.start()
  })
}

export function stopPlayback(): void {
  const playing = current
  current = null
  if (!playing) return
  try {
    playing.stop()
  } catch {
    // Already ended.
  }
}

export function base64ToArrayBuffer(base64: string): ArrayBuffer {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes.buffer
}
