import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import { accountData, deleteAccountData } from './account.ts'

export function accountRoutes({ db, shared, users }: Deps): Handlers {
  return defineHandlers('descriptors', {
    exportDescriptorsAccountData: async ({ user }) => accountData(db, user.id),
    deleteDescriptorsAccountData: async ({ user, reply }) => {
      const { sharedChanged } = await deleteAccountData(db, user.id)
      users.forget(user.id)
      if (sharedChanged) shared.invalidate()
      return reply.code(204).send()
    },
  })
}
