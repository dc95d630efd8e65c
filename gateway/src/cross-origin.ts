// Same origin only: a write that a browser sends from another site is refused (CSRF), and no
// CORS headers are ever sent. The site's own origins come from the configuration: taken from
// Host, a rebound name was its own origin.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '@crv/kit'
import type { GatewayConfig } from './config.ts'
import { ownOrigins } from './hosts.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function crossOrigin() {
  return new AppError('cross_origin_refused', 403, 'Cross-origin requests are not allowed')
}

async function crossOriginCheck(app: FastifyInstance, { config }: { config: GatewayConfig }) {
  const origins = ownOrigins(config)
  app.addHook('onListen', async () => {
    const address = app.server.address()
    if (address && typeof address === 'object') origins.addPort(address.port)
  })
  // Every write, whatever its path: a route is what the router matched, not what the URL spells.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return
    const origin = request.headers.origin
    if (request.headers['sec-fetch-site'] === 'cross-site') throw crossOrigin()
    if (origin !== undefined && !origins.has(origin)) throw crossOrigin()
  })
}

export default fp(crossOriginCheck, { name: 'gateway-cross-origin-check' })
