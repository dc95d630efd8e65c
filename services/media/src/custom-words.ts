import type { Handlers } from '@crv/kit'
import type { MediaDeps } from './deps.ts'

/** Gestalt clips and custom gestalts (issue [5]). */
export function customWordHandlers(_deps: MediaDeps): Handlers {
  return {}
}
