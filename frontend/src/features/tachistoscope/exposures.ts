import type { TFunction } from 'i18next'

/** An exposure: a duration in ms, or exactly one frame of the display. */
export type Exposure = { id: string; ms: number | 'frame' }

export const defaultExposure: Exposure = { id: '5000', ms: 5_000 }

// The spec's six (60 s to 0.5 s, 5 s the default), then shorter ones for trained eyes.
export const exposures: readonly Exposure[] = [
  { id: '60000', ms: 60_000 },
  { id: '30000', ms: 30_000 },
  { id: '15000', ms: 15_000 },
  defaultExposure,
  { id: '1000', ms: 1_000 },
  { id: '500', ms: 500 },
  { id: '200', ms: 200 },
  { id: '100', ms: 100 },
  { id: '50', ms: 50 },
  { id: 'frame', ms: 'frame' },
]

export const exposureById = (id: string): Exposure =>
  exposures.find((e) => e.id === id) ?? defaultExposure

/** An exposure's name: '1 minute', '5 seconds', '0.5 seconds', '200 ms', '1 frame'. */
export function exposureLabel(t: TFunction<'tachistoscope'>, exposure: Exposure): string {
  const { ms } = exposure
  if (ms === 'frame') return t('exposure.oneFrame')
  if (ms >= 60_000) return t('exposure.minutes', { count: ms / 60_000 })
  if (ms >= 500) return t('exposure.seconds', { count: ms / 1000 })
  return t('exposure.milliseconds', { count: ms })
}

export type ImageCategory = 'random' | 'people'

/** The categories, in the order they are offered (names: tachistoscope.json, `categories`). */
export const imageCategories: readonly ImageCategory[] = ['random', 'people']
