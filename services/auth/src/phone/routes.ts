import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { AuthServices } from '../deps.ts'
import { startSession } from '../sessions/replies.ts'
import { adminPhones, devOutbox, sendCode, verifyCode } from './phone.ts'

/** Phone sign-in (a code by SMS) and the development SMS outbox. */
export function phoneRoutes(services: AuthServices): Handlers {
  const admins = adminPhones(services.config)
  return defineHandlers('auth', {
    startPhoneSignIn: async ({ body, request, reply }) =>
      reply.code(202).send(await sendCode(services, body, request.ip)),

    verifyPhoneCode: async ({ body, reply }) =>
      startSession(services.session, reply, await verifyCode(services, admins, body)),

    listDevSmsOutbox: ({ query, request, reply }) =>
      devOutbox(services, request, query.phone) ??
      reply.code(404).send({ error: { code: 'not_found', message: 'No SMS outbox here' } }),
  })
}
