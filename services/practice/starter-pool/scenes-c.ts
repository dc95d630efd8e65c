// Scenes of the starter pool, part c.
import type { Scene } from './draw.ts'

export const scenesC: Scene[] = []
