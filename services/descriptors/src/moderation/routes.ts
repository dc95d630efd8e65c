import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import {
  adminList,
  adminStats,
  deleteConcepts,
  deleteInEveryLanguage,
  exportAll,
  optimize,
  pendingWords,
  promote,
  reject,
  seedAgain,
} from './moderation.ts'
import { exportCsv } from './views.ts'

export function moderationRoutes(deps: Deps): Handlers {
  return defineHandlers('descriptors', {
    listPendingDescriptors: async () => pendingWords(deps),

    promoteDescriptor: async ({ params }) => promote(deps, params.id),

    rejectDescriptor: async ({ params, reply }) => {
      await reject(deps, params.id)
      return reply.code(204).send()
    },

    listAdminDescriptors: async ({ query }) => adminList(deps, query),

    bulkDeleteDescriptors: async ({ body, request }) => {
      const deleted = await deleteConcepts(deps, body.descriptorIds)
      request.log.info(
        { descriptorIds: body.descriptorIds, deleted },
        'descriptors deleted in every language',
      )
      return { totalDeleted: deleted }
    },

    deleteDescriptorAllLanguages: async ({ params, request }) => {
      const deleted = await deleteInEveryLanguage(deps, params.id)
      request.log.info({ descriptorId: params.id, deleted }, 'descriptor deleted in every language')
      return { deletedCount: deleted }
    },

    exportAllDescriptors: async ({ query, user, reply }) => {
      const format = query.format ?? 'json' // the contract's default
      const descriptors = await exportAll(deps, user, format)
      const date = new Date().toISOString().slice(0, 10)
      reply
        .header('content-disposition', `attachment; filename="crv_descriptors_${date}.${format}"`)
        .header('cache-control', 'no-store')
      if (format === 'json') {
        return { exportedAt: new Date().toISOString(), count: descriptors.length, descriptors }
      }
      // Sent as bytes: the JSON response check applies to JSON bodies only.
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .send(Buffer.from(exportCsv(descriptors), 'utf8'))
    },

    getAdminStats: async () => adminStats(deps),

    seedDatabase: async ({ user }) => seedAgain(deps, user),

    optimizeTables: async ({ user }) => optimize(deps, user),
  })
}
