// The gateway: one plugin per concern, registered in the order their hooks must run (the host
// check before any other work, the rate limit before the cross-origin check and the proxy).
import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { installRequestLog, toErrorReply } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { serviceUrls } from './config.ts'
import type { GatewayConfig } from './config.ts'
import crossOriginCheck from './cross-origin.ts'
import frontend from './frontend.ts'
import healthRoutes from './health-routes.ts'
import hostCheck from './host-check.ts'
import proxy, { upstreamForwarding } from './proxy.ts'
import rateLimits from './rate-limit.ts'
import { routingTable } from './routes.ts'
import securityHeaders from './security-headers.ts'

export { securityHeadersFor } from './security-headers.ts'
export { originFormOf, STREAMED_BODY_THRESHOLD, upstreamError } from './proxy.ts'

export interface GatewayOptions {
  config: GatewayConfig
  /** Defaults to the auth service's published keys (AUTH_URL's JWKS). */
  verifyToken?: TokenVerifier
}

async function gatewayApp(app: FastifyInstance, { config, verifyToken }: GatewayOptions) {
  const upstreams = serviceUrls(config)

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const { status, body, internal } = toErrorReply(err)
    if (internal) request.log.error({ err }, 'request failed')
    return reply.code(status).send(body)
  })
  installRequestLog(app)

  await app.register(hostCheck, { config })
  await app.register(securityHeaders, { config })
  await app.register(rateLimits, { config })
  await app.register(crossOriginCheck, { config })
  const forward = upstreamForwarding(app, config)
  await app.register(proxy, { config, upstreams, routes: routingTable(), forward, verifyToken })
  await app.register(healthRoutes, { upstreams, forward })
  await app.register(frontend, { dist: config.FRONTEND_DIST })
}

export default fp(gatewayApp, { name: 'gateway-app' })
