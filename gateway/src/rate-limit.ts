// Rate limits per client on the API: one count per IPv4 address or IPv6 /64 across every
// contract operation, kept by both ways a request is answered (Fastify's routes and the fast
// path). With Redis the count is shared by every gateway replica; while Redis is down the limit
// lets requests through rather than turning an outage of the limiter into an outage of the app.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import {
  AppError,
  FixedWindowLimiter,
  SharedFixedWindowLimiter,
  clientKey,
  createRedis,
  waitUntilReady,
} from '@crv/kit'
import type { Redis, Taken } from '@crv/kit'
import type { GatewayConfig } from './config.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the contract's routes (forwarded, or health answered here): their operation. */
    operationId?: string
  }
  interface FastifyInstance {
    /** The API's limit, for the fast path (fast-path.ts) to count in the same window. */
    apiLimit: ApiLimit
  }
}

/** Counts one request of the client at `ip`; synchronous without Redis. */
export type ApiLimit = (ip: string) => Taken | Promise<Taken>

/** A contract operation, decided on the matched route, never the URL. */
const isApiRoute = (request: FastifyRequest) =>
  request.routeOptions.config.operationId !== undefined

/** The headers every limited answer carries (as @fastify/rate-limit sent them before). */
export function rateLimitHeaders(taken: Taken, limit: number): Record<string, string> {
  const reset = String(Math.max(0, Math.ceil(taken.resetMs / 1000)))
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - taken.count)),
    'x-ratelimit-reset': reset,
  }
  if (taken.wait > 0) headers['retry-after'] = String(taken.wait)
  return headers
}

export function rateLimited(wait: number) {
  return new AppError('rate_limited', 429, 'Too many requests. Please try again later', {
    retryAfterSeconds: wait,
  })
}

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
  const window = { limit: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS }
  let apiLimit: ApiLimit
  if (redis) {
    const shared = new SharedFixedWindowLimiter(redis, window, { whenRedisFails: 'allow' })
    apiLimit = (ip) => shared.taken(`crv-gw-rl:${clientKey(ip)}`)
  } else {
    const memory = new FixedWindowLimiter(window)
    apiLimit = (ip) => memory.taken(clientKey(ip))
  }
  app.decorate('apiLimit', apiLimit)

  app.addHook('onRequest', async (request, reply) => {
    // On the matched route: the router decodes `/%61pi/settings` to `/api/settings`, so a test
    // of the raw URL let that spelling past the limit.
    if (!isApiRoute(request)) return
    const taken = await apiLimit(request.ip)
    reply.headers(rateLimitHeaders(taken, config.RATE_LIMIT_MAX))
    if (taken.wait > 0) throw rateLimited(taken.wait)
  })
}

export default fp(rateLimits, { name: 'gateway-rate-limits' })
