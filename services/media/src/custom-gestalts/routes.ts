import type { FastifyReply } from 'fastify'
import { AppError, defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { MediaDeps } from '../deps.ts'
import { sendObject } from '../serve-object.ts'
import {
  createCustomGestalt,
  customClipKey,
  customGestaltsForAccountExport,
  customGestaltsOf,
  deleteMediaOfUser,
  removeCustomGestalt,
  removeStorageFile,
} from './custom-gestalts.ts'
import { customGestaltView, mediaExportView } from './views.ts'

/** Speech's retry hint (with its 429 or 503) reaches the caller as Retry-After. */
async function passingRetryAfter<T>(reply: FastifyReply, work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    const details = err instanceof AppError ? err.details : undefined
    const retryAfter = (details as { retryAfter?: number } | undefined)?.retryAfter
    if (retryAfter) reply.header('retry-after', retryAfter)
    throw err
  }
}

/** Custom gestalts (issue [5]): the user's own words with their clips, and their account part. */
export function customGestaltRoutes(deps: MediaDeps): Handlers {
  return defineHandlers('media', {
    generateCustomWordAudio: async ({ body, user, request, reply }) => {
      const speech = { authorization: request.headers.authorization, forwardedFor: request.ip }
      const made = await passingRetryAfter(
        reply,
        createCustomGestalt(deps, user.id, body.word, speech),
      )
      return reply.code(made.created ? 201 : 200).send(customGestaltView(made.gestalt))
    },

    listCustomWords: async ({ user }) =>
      (await customGestaltsOf(deps, user.id)).map(customGestaltView),

    deleteCustomWord: async ({ params, user, reply }) => {
      await removeCustomGestalt(deps, user.id, Number(params.id))
      return reply.code(204).send()
    },

    // A clip never changes under its name (a new clip gets a new name).
    getStorageObject: ({ params: { objectPath }, request, reply }) =>
      sendObject(deps.storage, request, reply, customClipKey(objectPath), {
        cacheControl: 'private, max-age=31536000, immutable',
        missing: `Object '${objectPath}' does not exist.`,
      }),

    deleteStorageFile: async ({ body, user, reply }) => {
      await removeStorageFile(deps, user.id, body.fileUrl)
      return reply.code(204).send()
    },

    exportMediaAccountData: async ({ user }) =>
      mediaExportView(await customGestaltsForAccountExport(deps, user.id)),

    deleteMediaAccountData: async ({ user, reply }) => {
      await deleteMediaOfUser(deps, user.id)
      return reply.code(204).send()
    },
  })
}
