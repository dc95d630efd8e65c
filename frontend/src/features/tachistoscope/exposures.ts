/** An exposure: a duration in ms, or exactly one frame of the display. */
export type Exposure = { id: string; label: string; ms: number | 'frame' }

export const defaultExposure: Exposure = { id: '5000', label: '5 seconds', ms: 5_000 }

// The spec's six (60 s to 0.5 s, 5 s the default), then shorter ones for trained eyes.
export const exposures: readonly Exposure[] = [
  { id: '60000', label: '1 minute', ms: 60_000 },
  { id: '30000', label: '30 seconds', ms: 30_000 },
  { id: '15000', label: '15 seconds', ms: 15_000 },
  defaultExposure,
  { id: '1000', label: '1 second', ms: 1_000 },
  { id: '500', label: '0.5 seconds', ms: 500 },
  { id: '200', label: '200 ms', ms: 200 },
  { id: '100', label: '100 ms', ms: 100 },
  { id: '50', label: '50 ms', ms: 50 },
  { id: 'frame', label: '1 frame', ms: 'frame' },
]

export const exposureById = (id: string): Exposure =>
  exposures.find((e) => e.id === id) ?? defaultExposure

export type ImageCategory = 'random' | 'people'

/** The trainer's names for the categories. */
export const trainerCategoryLabels: Record<ImageCategory, string> = {
  random: 'Random Pictures',
  people: 'People Pictures',
}

/** The upload page's names for the categories (spec: random = Random Objects, people = People). */
export const uploadCategoryLabels: Record<ImageCategory, string> = {
  random: 'Random Objects',
  people: 'People',
}
