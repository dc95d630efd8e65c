// Scenes of the starter pool, part d.
import type { Scene } from './draw.ts'

export const scenesD: Scene[] = []
