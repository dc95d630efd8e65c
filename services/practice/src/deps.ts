// What the practice service's parts are given at start-up (app.ts builds it).
import type { Database } from '@crv/kit/db'
import type { ObjectStorage } from '@crv/kit/storage'
import type { CandidateDraw } from './sessions/candidate-sets.ts'
import type { Vocabulary } from './vocabulary.ts'

export interface PracticeDeps {
  db: Database
  storage: ObjectStorage
  vocabulary: Vocabulary
  /** Local sidereal time in hours at a position, or null when it cannot be had. */
  siderealHours: (latitude: number, longitude: number) => Promise<number | null>
  /** Hours after which an open or unjudged session is closed as abandoned. */
  abandonAfterHours: number
  /** The candidate draw (the fair one unless a test plants another). */
  draw?: CandidateDraw | undefined
}
