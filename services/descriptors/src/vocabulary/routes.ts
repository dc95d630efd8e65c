import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import {
  addWord,
  bulkBody,
  deleteWord,
  randomDescriptor,
  toggleHidden,
  userWords,
  userWordsExport,
} from './vocabulary.ts'

export function vocabularyRoutes(deps: Deps): Handlers {
  const { shared } = deps
  return defineHandlers('descriptors', {
    listGestalts: async ({ query }) => shared.categories('gestalt', query.language ?? 'en'),
    listPerceptions: async ({ query }) => shared.categories('perception', query.language ?? 'en'),

    getBulkDescriptors: async ({ query, user, request, reply }) => {
      const accepts = request.headers['accept-encoding']
      const { body, coding } = await bulkBody(deps, user, query.language ?? 'en', accepts)
      // Per caller: a browser must not serve one user's (or a visitor's) copy to another.
      reply
        .header('cache-control', 'private, max-age=300')
        .header('vary', 'Authorization, Accept-Encoding')
        .type('application/json; charset=utf-8')
      if (coding) reply.header('content-encoding', coding)
      return reply.send(body)
    },

    getRandomDescriptor: async ({ body, user }) => randomDescriptor(deps, body, user),

    createDescriptor: async ({ body, user, reply }) =>
      reply.code(201).send(await addWord(deps, body, user)),

    deleteDescriptor: async ({ params, user, reply }) => {
      await deleteWord(deps, params.id, user)
      return reply.code(204).send()
    },
    directDeleteDescriptor: async ({ params, user, reply }) => {
      await deleteWord(deps, params.id, user)
      return reply.code(204).send()
    },

    toggleDescriptorHidden: async ({ params, user }) => toggleHidden(deps, params.id, user),

    listUserDescriptors: async ({ user }) => userWords(deps, user.id),

    exportUserDescriptors: async ({ query, user, reply }) => {
      const csv = await userWordsExport(deps, user.id, query.language)
      const date = new Date().toISOString().slice(0, 10)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="my_descriptors_${query.language}_${date}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(csv)
    },
  })
}
