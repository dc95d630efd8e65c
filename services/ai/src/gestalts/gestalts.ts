// The ideogram page's spoken gestalts (spec §3: the seven basic gestalts and Water), made once
// by the speech engine and stored where the media service serves them (gestaltClipKey).
import { gestaltClipKey } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { ObjectStorage } from '@crv/kit/storage'
import type { SpeechEngine } from '../engines/speech-engine.ts'

type BasicGestaltId = components['schemas']['BasicGestaltId']

/** What the engine says for each gestalt. */
export const GESTALT_WORDS = {
  biological: 'biological',
  energy: 'energy',
  land: 'land',
  man: 'man made',
  motion: 'motion',
  natural: 'natural',
  space: 'space',
  water: 'water',
} as const satisfies Record<BasicGestaltId, string>

/** Makes the clips that are missing; returns the ids it made. */
export async function ensureGestaltClips(
  engine: SpeechEngine,
  storage: ObjectStorage,
): Promise<BasicGestaltId[]> {
  const made: BasicGestaltId[] = []
  for (const [id, text] of Object.entries(GESTALT_WORDS) as [BasicGestaltId, string][]) {
    const key = gestaltClipKey(id)
    if (await storage.head(key)) continue
    const mp3 = await engine.synthesize(text, 'en')
    await storage.put(key, mp3, { contentType: 'audio/mpeg' })
    made.push(id)
  }
  return made
}
