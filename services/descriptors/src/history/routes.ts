import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import { deleteHistory, recordSession, trainingHistory } from './history.ts'

export function historyRoutes({ db, users }: Deps): Handlers {
  return defineHandlers('descriptors', {
    recordTrainingSession: async ({ body, user, reply }) => {
      const inserted = await recordSession(db, user.id, body)
      return reply.code(inserted ? 201 : 200).send(body)
    },

    getTrainingHistory: async ({ query, user }) => trainingHistory(db, user.id, query),

    deleteTrainingHistory: async ({ user, reply }) => {
      await deleteHistory(db, user.id)
      users.forget(user.id)
      return reply.code(204).send()
    },
  })
}
