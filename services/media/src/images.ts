import type { Handlers } from '@crv/kit'
import type { MediaDeps } from './deps.ts'

/** Tachistoscope image library (issue [6]). */
export function imageHandlers(_deps: MediaDeps): Handlers {
  return {}
}
