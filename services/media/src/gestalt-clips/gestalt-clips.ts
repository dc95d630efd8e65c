import { notFound } from '@crv/kit'

/** The basic gestalts and Water, whose clips the speech service voices at its start. */
export const GESTALT_IDS = new Set([
  'biological',
  'energy',
  'land',
  'man',
  'motion',
  'natural',
  'space',
  'water',
])

/** Where the speech service stores a gestalt's clip (services/ai/src/gestalts.ts writes it). */
export const gestaltAudioKey = (id: string) => `gestalts/${id}.mp3`

/** The object key of a gestalt's clip; a name that is no gestalt is not found. */
export function gestaltClipKey(gestaltId: string): string {
  if (!GESTALT_IDS.has(gestaltId)) throw notFound(`No gestalt called '${gestaltId}'`)
  return gestaltAudioKey(gestaltId)
}
