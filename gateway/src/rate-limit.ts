// Rate limits per client IP on the API. With Redis the count is shared by every gateway replica;
// when Redis is down the limiter lets requests through (skipOnError) rather than turning an
// outage of the limiter into an outage of the app.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import { AppError, clientKey, createRedis, waitUntilReady } from '@crv/kit'
import type { Redis } from '@crv/kit'
import type { GatewayConfig } from './config.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the contract's routes (forwarded, or health answered here): their operation. */
    operationId?: string
  }
}

/** A contract operation, decided on the matched route, never the URL. */
const isApiRoute = (request: FastifyRequest) =>
  request.routeOptions.config.operationId !== undefined

async function rateLimits(app: FastifyInstance, { config }: { config: GatewayConfig }) {
  let redis: Redis | undefined
  if (config.REDIS_URL) {
    redis = createRedis(config.REDIS_URL, { name: 'gateway-rate-limit' })
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'rate-limit store unavailable'))
    app.addHook('onClose', async () => {
      redis?.disconnect()
    })
    await waitUntilReady(redis, 2_000)
  }
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_MAX,
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    // On the matched route: the router decodes `/%61pi/settings` to `/api/settings`, so a test
    // of the raw URL let that spelling past the limit.
    allowList: (request) => !isApiRoute(request),
    // One count per IPv4 address or IPv6 /64, the key every limit of the app uses.
    keyGenerator: (request) => clientKey(request.ip),
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'crv-gw-rl:' } : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        context.statusCode,
        'Too many requests. Please try again later',
        {
          retryAfterSeconds: Math.ceil(context.ttl / 1000),
        },
      ),
  })
}

export default fp(rateLimits, { name: 'gateway-rate-limits' })
