// The gateway: one plugin per concern, registered in the order their hooks must run (the host
// check before any other work, the rate limit before the cross-origin check and the proxy).
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify from 'fastify'
import type { FastifyError, FastifyInstance, FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import { fastifyBaseOptions, installRequestLog, toErrorReply } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { serviceUrls } from './config.ts'
import type { GatewayConfig } from './config.ts'
import crossOriginCheck from './cross-origin.ts'
import { createFastPath } from './fast-path.ts'
import type { FastPath } from './fast-path.ts'
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

/**
 * The gateway as its server runs it: the app on a node:http server whose requests meet the fast
 * path (fast-path.ts) first, unless FAST_PATH is false. `fastPath` is undefined then.
 */
export async function buildGateway(
  config: GatewayConfig,
  options: Omit<GatewayOptions, 'config'> = {},
  /** Fastify's own options over the usual ones (a test's log stream). */
  serverOptions: Pick<FastifyServerOptions, 'logger'> = {},
): Promise<{ app: FastifyInstance; fastPath: FastPath | undefined }> {
  // The server is made first, by Fastify; the fast path once the app (its logger, its limit)
  // exists. Until then every request goes to Fastify, which is not listening yet anyway.
  let fastPath: FastPath | undefined
  const app = Fastify({
    ...fastifyBaseOptions(config),
    ...serverOptions,
    serverFactory: (handler) =>
      createServer((req: IncomingMessage, res: ServerResponse) => {
        if (!fastPath?.handle(req, res)) handler(req, res)
      }),
  })
  await app.register(gatewayApp, { config, ...options })
  if (config.FAST_PATH) {
    const made = createFastPath({
      config,
      upstreams: serviceUrls(config),
      routes: routingTable(),
      log: app.log,
      apiLimit: app.apiLimit,
    })
    // Closing: Fastify answers 503 to what still comes; the pools close with the app.
    app.addHook('preClose', async () => made.stop())
    app.addHook('onClose', made.close)
    fastPath = made
  }
  return { app, fastPath }
}
