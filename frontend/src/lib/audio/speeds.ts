/** The pause between words (spec §9). `random` draws a new pause for every gap. */
export const speeds = [
  { key: 'verySlow', delayMs: 5000, label: '5s Slowest' },
  { key: 'slow', delayMs: 3000, label: '3s Slow' },
  { key: 'medium', delayMs: 1500, label: '1.5s Medium' },
  { key: 'fast', delayMs: 1000, label: '1s Fast' },
  { key: 'veryFast', delayMs: 500, label: 'Fast+' },
  { key: 'ultraFast', delayMs: 200, label: '0.2s Ultra' },
  { key: 'extremeFast', delayMs: 100, label: '0.1s Extreme' },
  { key: 'instantFast', delayMs: 0, label: 'Instant' },
  { key: 'random', delayMs: null, label: 'Random' },
] as const

export type Speed = (typeof speeds)[number]
export type SpeedKey = Speed['key']

/** The ideogram page starts at medium (spec §9). */
export const defaultSpeed: SpeedKey = 'medium'
/** The random speed's range, in milliseconds. */
export const randomDelayRangeMs = { min: 0, max: 5000 } as const

/** One pause, in seconds: fixed for a speed, drawn afresh for `random`. */
export function delaySeconds(key: SpeedKey, random: () => number = Math.random): number {
  const speed = speeds.find((s) => s.key === key)
  if (!speed || speed.delayMs === null) {
    const { min, max } = randomDelayRangeMs
    return (min + random() * (max - min)) / 1000
  }
  return speed.delayMs / 1000
}
