// The parts of the Web Audio API the engine uses, so unit tests can hand it a fake context.

export interface AudioBufferLike {
  readonly duration: number
  readonly sampleRate: number
  readonly length: number
  readonly numberOfChannels: number
  getChannelData(channel: number): Float32Array
}

export interface AudioNodeLike {
  connect(destination: AudioNodeLike): unknown
  disconnect(): void
}

export interface AudioParamLike {
  value: number
  setValueAtTime(value: number, time: number): unknown
}

export interface GainNodeLike extends AudioNodeLike {
  readonly gain: AudioParamLike
}

export interface AudioBufferSourceNodeLike extends AudioNodeLike {
  buffer: AudioBufferLike | null
  onended: ((this: never, event: Event) => unknown) | null
  start(when: number): void
  stop(when?: number): void
}

export interface AudioContextLike {
  readonly currentTime: number
  readonly sampleRate: number
  readonly state: string
  readonly destination: AudioNodeLike
  resume(): Promise<void>
  createGain(): GainNodeLike
  createBufferSource(): AudioBufferSourceNodeLike
  decodeAudioData(bytes: ArrayBuffer): Promise<AudioBufferLike>
}

/**
 * Where a clip's sound starts: the first sample louder than `threshold` (in seconds from the
 * clip's start). The onset measurement subtracts it from the heard onset.
 */
export function clipOnsetSeconds(buffer: AudioBufferLike, threshold = 0.01): number {
  let first = buffer.length
  for (let channel = 0; channel < buffer.numberOfChannels; channel += 1) {
    const data = buffer.getChannelData(channel)
    for (let i = 0; i < Math.min(first, data.length); i += 1) {
      if (Math.abs(data[i] ?? 0) > threshold) {
        first = i
        break
      }
    }
  }
  return first / buffer.sampleRate
}
