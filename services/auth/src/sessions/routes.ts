import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { AuthServices } from '../deps.ts'
import { endSession, refreshSession } from './replies.ts'
import { signInOptionsView } from './views.ts'

/** Sessions (refresh, sign-out), the sign-in page's options and the keys that verify tokens. */
export function sessionRoutes(services: AuthServices): Handlers {
  const { config, keys, session } = services
  return defineHandlers('auth', {
    refreshSession: ({ request, reply }) => refreshSession(session, request, reply),

    signOut: async ({ request, reply }) => {
      await endSession(session, request, reply)
      return reply.code(204).send()
    },

    getSignInOptions: () => signInOptionsView(config),

    getJwks: ({ reply }) => {
      reply.header('cache-control', 'public, max-age=300')
      return keys.jwks
    },
  })
}
