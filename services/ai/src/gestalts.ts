// The ideogram page's spoken gestalts (spec §3: the seven basic gestalts and Water), made once
// by the speech engine and stored where the media service serves them: gestalts/{id}.mp3.
import type { ObjectStorage } from '@crv/kit/storage'
import type { SpeechEngine } from './engines/speech-engine.ts'

export const GESTALT_WORDS = {
  biological: 'biological',
  energy: 'energy',
  land: 'land',
  man: 'man made',
  motion: 'motion',
  natural: 'natural',
  space: 'space',
  water: 'water',
} as const

export const gestaltKey = (id: keyof typeof GESTALT_WORDS) => `gestalts/${id}.mp3`

/** Makes the clips that are missing; returns the ids it made. */
export async function ensureGestaltClips(
  engine: SpeechEngine,
  storage: ObjectStorage,
): Promise<string[]> {
  const made: string[] = []
  for (const [id, text] of Object.entries(GESTALT_WORDS) as [
    keyof typeof GESTALT_WORDS,
    string,
  ][]) {
    const key = gestaltKey(id)
    if (await storage.head(key)) continue
    const mp3 = await engine.synthesize(text, 'en')
    await storage.put(key, mp3, { contentType: 'audio/mpeg' })
    made.push(id)
  }
  return made
}
