import type { FastifyRequest } from 'fastify'
import { defineHandlers, unauthorized } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { AuthServices } from '../deps.ts'
import { clearCookie } from '../sessions/replies.ts'
import { toApiUser } from '../users/views.ts'
import { currentAccount, deleteAccount, exportAccount } from './account.ts'
import { accountParts } from './parts.ts'
import { exportFileName } from './views.ts'

/** The caller's own token, passed on to the services that keep the rest of the account. */
const authorizationOf = (request: FastifyRequest) => {
  const authorization = request.headers.authorization
  if (!authorization) throw unauthorized()
  return authorization
}

/** The signed-in account: who it is, its export and its deletion. */
export function accountRoutes(services: AuthServices): Handlers {
  const callPart = accountParts(services.config)
  return defineHandlers('auth', {
    getCurrentUser: async ({ user }) => toApiUser(await currentAccount(services, user)),

    exportAccount: async ({ user, request, reply }) => {
      const now = new Date()
      const body = await exportAccount(services, callPart, user, authorizationOf(request), now)
      reply.header('content-disposition', `attachment; filename="${exportFileName(now)}"`)
      reply.header('cache-control', 'no-store')
      return body
    },

    deleteAccount: async ({ user, request, reply }) => {
      await deleteAccount(services, callPart, user, authorizationOf(request))
      clearCookie(services.session, reply)
      return reply.code(204).send()
    },
  })
}
