// What the areas' handlers are built from: made once in app.ts, passed down (no area imports
// app.ts, so there is no import circle).
import type { FastifyBaseLogger } from 'fastify'
import type { TokenVerifier } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { Forwarder } from './analytics/forwarder.ts'
import type { SharedVocabulary } from './vocabulary/shared-cache.ts'
import type { UserStates } from './vocabulary/user-cache.ts'
import type { Vocabulary } from './vocabulary/shipped.ts'

export interface Deps {
  db: Database
  /** The shared vocabulary (system and approved words), cached per language. */
  shared: SharedVocabulary
  /** Each signed-in caller's own words, hides and review cards, cached when enabled. */
  users: UserStates
  verifyToken: TokenVerifier
  log: FastifyBaseLogger
  loadVocabulary: () => Vocabulary
  eventsPerMinute: number
  forwarder: Forwarder | null
}
