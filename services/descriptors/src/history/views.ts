import type { components } from '@crv/contracts'

type Minutes = components['schemas']['ActivityMinutes']

export const noMinutes = (): Minutes => ({
  ideogram: 0,
  descriptors: 0,
  tachistoscope: 0,
  reviews: 0,
})

const round = (minutes: number) => Math.round(minutes * 10) / 10

/** Minutes to a tenth, as the contract shows them. */
export const roundMinutes = (m: Minutes): Minutes => ({
  ideogram: round(m.ideogram),
  descriptors: round(m.descriptors),
  tachistoscope: round(m.tachistoscope),
  reviews: round(m.reviews),
})
