import type { AudioBufferLike } from './web-audio.ts'
import { clipOnsetSeconds } from './web-audio.ts'

/** One clip as measured: where it was meant to be heard and where it was heard (seconds). */
export type MeasuredOnset = {
  clipId: string
  /** Context time the clip was scheduled to start (end of the previous clip plus the pause). */
  intendedStart: number
  /** Where the clip's sound begins inside the decoded clip. */
  onsetInClip: number
  /** Context time of the first loud sample heard, or null until the recorder reports it. */
  heardAt: number | null
  /** heardAt − (intendedStart + onsetInClip), in milliseconds. */
  errorMs: number | null
}

/**
 * Measures clip onsets on the AudioContext sample clock (NOTES: 'Measuring audio onsets'): an
 * AudioWorklet between the engine and the speakers finds the first sample above 0.01 after
 * each clip's intended start; the clip's own lead-in is subtracted.
 */
export class OnsetRecorder {
  readonly node: AudioWorkletNode
  readonly onsets: MeasuredOnset[] = []
  private readonly sampleRate: number

  private constructor(node: AudioWorkletNode, sampleRate: number) {
    this.node = node
    this.sampleRate = sampleRate
    node.port.onmessage = (event: MessageEvent<{ id: number; frame: number }>) => {
      const onset = this.onsets[event.data.id]
      if (!onset) return
      onset.heardAt = event.data.frame / this.sampleRate
      onset.errorMs = (onset.heardAt - (onset.intendedStart + onset.onsetInClip)) * 1000
    }
  }

  static async create(context: AudioContext, moduleUrl: string): Promise<OnsetRecorder> {
    await context.audioWorklet.addModule(moduleUrl)
    const node = new AudioWorkletNode(context, 'crv-onset-recorder', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      outputChannelCount: [2],
    })
    node.connect(context.destination)
    return new OnsetRecorder(node, context.sampleRate)
  }

  /** Forgets clips that were scheduled but cancelled by a stop: they will never sound. */
  disarm(): void {
    this.node.port.postMessage({ clear: true })
  }

  /** Arms the recorder for a clip just scheduled (the engine's `onScheduled`). */
  arm(clipId: string, intendedStart: number, buffer: AudioBufferLike): void {
    const id = this.onsets.length
    this.onsets.push({
      clipId,
      intendedStart,
      onsetInClip: clipOnsetSeconds(buffer),
      heardAt: null,
      errorMs: null,
    })
    this.node.port.postMessage({ id, fromFrame: Math.round(intendedStart * this.sampleRate) })
  }
}
