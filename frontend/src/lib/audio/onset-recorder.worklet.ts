// Runs on the audio rendering thread (AudioWorkletGlobalScope). Passes the sound through and
// reports, on the sample clock, the first sample louder than the threshold at or after each
// armed frame: where each clip was really heard.

declare const currentFrame: number
declare function registerProcessor(name: string, processor: unknown): void
declare class AudioWorkletProcessor {
  readonly port: MessagePort
}

type Arm = { id: number; fromFrame: number }
type Message = Arm | { clear: true }

const threshold = 0.01

class OnsetRecorder extends AudioWorkletProcessor {
  private armed: Arm[] = []

  constructor() {
    super()
    this.port.onmessage = (event: MessageEvent<Message>) => {
      // Clips cancelled by a stop will never sound: their arms must not wait for other sound.
      if ('clear' in event.data) this.armed = []
      else this.armed.push(event.data)
    }
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0] ?? []
    const output = outputs[0] ?? []
    for (let channel = 0; channel < output.length; channel += 1) {
      const source = input[channel] ?? input[0]
      if (source) output[channel]?.set(source)
    }
    const length = input[0]?.length ?? 0
    if (length === 0 || this.armed.length === 0) return true
    // Each armed clip on its own: the first loud sample at or after its own start frame.
    this.armed = this.armed.filter((arm) => {
      if (arm.fromFrame >= currentFrame + length) return true
      const from = Math.max(0, arm.fromFrame - currentFrame)
      for (let i = from; i < length; i += 1) {
        for (const data of input) {
          if (Math.abs(data[i] ?? 0) > threshold) {
            this.port.postMessage({ id: arm.id, frame: currentFrame + i })
            return false
          }
        }
      }
      return true
    })
    return true
  }
}

registerProcessor('crv-onset-recorder', OnsetRecorder)
