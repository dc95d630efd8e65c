// The ideogram page's gestalts (the contract's BasicGestaltId) and where their spoken clips are
// stored: the ai service makes them, the media service serves them.
import type { components } from '@crv/contracts'

export type BasicGestaltId = components['schemas']['BasicGestaltId']

// A record, so the compiler holds the list to the contract's enum: every id, and no other.
const IDS = {
  biological: true,
  energy: true,
  land: true,
  man: true,
  motion: true,
  natural: true,
  space: true,
  water: true,
} as const satisfies Record<BasicGestaltId, true>

/** The seven basic gestalts and Water, in the contract's order. */
export const BASIC_GESTALT_IDS = Object.keys(IDS) as readonly BasicGestaltId[]

export const isBasicGestaltId = (id: string): id is BasicGestaltId => Object.hasOwn(IDS, id)

/** The storage key of a gestalt's spoken clip. */
export const gestaltClipKey = (id: BasicGestaltId) => `gestalts/${id}.mp3`
