import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { MediaDeps } from '../deps.ts'
import { sendObject } from '../serve-object.ts'
import { clipKeyOf } from './gestalt-clips.ts'

/** The basic gestalts' clips (issue [5]). */
export function gestaltClipRoutes({ storage }: MediaDeps): Handlers {
  return defineHandlers('media', {
    // Clips are revoiced only when the speech engine changes: a day fresh, then revalidated.
    getGestaltAudio: ({ params: { gestaltId }, request, reply }) =>
      sendObject(storage, request, reply, clipKeyOf(gestaltId), {
        cacheControl: 'public, max-age=86400, stale-while-revalidate=604800',
        missing: `The clip of '${gestaltId}' is not available yet. Please try again shortly.`,
      }),
  })
}
