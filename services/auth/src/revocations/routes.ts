import type { FastifyInstance } from 'fastify'
import { bearerToken } from '@crv/kit'
import type { RevocationCheck, TokenVerifier } from '@crv/kit'

/**
 * Answers the other services' kit: is the caller's own token revoked? Asked with the token
 * itself; the path is outside /api (and the contract), so the gateway never forwards it.
 */
export function tokenStatusRoute(
  app: FastifyInstance,
  verify: TokenVerifier,
  check: RevocationCheck,
) {
  app.get('/internal/token-status', { logLevel: 'warn' }, async (request, reply) => {
    const token = bearerToken(request)
    if (!token)
      return reply.code(401).send({ error: { code: 'unauthorized', message: 'No token' } })
    const user = await verify(token)
    return { revoked: await check(token, user) }
  })
}
