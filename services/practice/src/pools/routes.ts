// The handlers of pools and targets: a few lines each, the story is in pools.ts.
import { defineHandlers, notFound } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import {
  createPool,
  createTargets,
  deleteTargetOf,
  listPools,
  listTargets,
  renameTargetPool,
  targetPicture,
  updateTargetOf,
} from './pools.ts'
import type { PoolsDeps } from './pools.ts'

export function poolHandlers(deps: PoolsDeps): Handlers {
  return defineHandlers('practice', {
    listPracticePools: () => listPools(deps),

    createPracticePool: async ({ body, reply }) =>
      reply.code(201).send(await createPool(deps, body.name)),

    renamePracticePool: ({ params, body }) => renameTargetPool(deps, params.poolId, body.name),

    listPracticeTargets: ({ query }) => listTargets(deps, query.poolId),

    createPracticeTargets: async ({ body, request }) => {
      const result = await createTargets({ ...deps, log: request.log }, body)
      request.log.info(
        { created: result.created.length, refused: result.refused.length },
        'practice targets added',
      )
      return result
    },

    updatePracticeTarget: ({ params, body }) => updateTargetOf(deps, params.targetId, body),

    deletePracticeTarget: async ({ params, request, reply }) => {
      await deleteTargetOf({ ...deps, log: request.log }, params.targetId)
      return reply.code(204).send()
    },

    getPracticeImage: async ({ params, reply }) => {
      const found = await targetPicture(deps, params.key)
      if (!found) throw notFound('Image not found')
      return reply
        .type('image/jpeg')
        .header('content-length', String(found.info.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('etag', found.info.etag)
        .send(found.body)
    },
  })
}
