import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import { Transform } from 'node:stream'
import type { Readable } from 'node:stream'
import {
  AppError,
  authorize,
  clientKey,
  createRedis,
  createTokenVerifier,
  errorBody,
  installRequestLog,
  toErrorReply,
  waitUntilReady,
} from '@crv/kit'
import type { Redis, TokenVerifier } from '@crv/kit'
import { SERVICES, serviceUrls } from './config.ts'
import type { GatewayConfig, ServiceName } from './config.ts'
import { createForwarder } from './forward.ts'
import type { ForwardFailure } from './forward.ts'
import { createHealthReport } from './health.ts'
import { allowedHostnames, hostnameOf, ownOrigins } from './hosts.ts'
import { routingTable } from './routes.ts'
import { loadShells } from './shells.ts'
import type { Route } from './routes.ts'

export interface GatewayOptions {
  config: GatewayConfig
  /** Defaults to the auth service's published keys (AUTH_URL's JWKS). */
  verifyToken?: TokenVerifier
}

/** Bodies above this are streamed to the service, never held whole in the gateway's memory. */
export const STREAMED_BODY_THRESHOLD = 1024 * 1024

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the contract's routes (forwarded, or health answered here): their operation. */
    operationId?: string
    /** Answered whatever the Host: liveness probes name the pod or container by its address. */
    anyHost?: boolean
  }
}

/** A contract operation, decided on the matched route, never the URL. */
const isApiRoute = (request: FastifyRequest) =>
  request.routeOptions.config.operationId !== undefined

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const HASHED_ASSET = /^\/assets\//

async function gatewayApp(app: FastifyInstance, { config, verifyToken }: GatewayOptions) {
  const upstreams = serviceUrls(config)

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const { status, body, internal } = toErrorReply(err)
    if (internal) request.log.error({ err }, 'request failed')
    return reply.code(status).send(body)
  })
  installRequestLog(app)

  // Only the hosts the configuration names (DNS rebinding): first, before any other work. Both
  // the Host header and a trusted proxy's X-Forwarded-Host must name one: a rebound page on this
  // machine reaches the gateway from loopback, which is trusted, and may set X-Forwarded-Host.
  const hosts = allowedHostnames(config)
  const answered = (host: string | undefined) => hosts.has(hostnameOf(host) ?? '')
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.anyHost) return
    if (!answered(request.headers.host) || !answered(request.host)) throw misdirected()
  })

  // Security headers, computed once (helmet rebuilt its policy string on every request).
  const securityHeaders = securityHeadersFor(config)
  const securityHeaderEntries = Object.entries(securityHeaders)
  app.addHook('onSend', async (_request, reply, payload) => {
    // A service may set its own policy for a response (the sign-in popup's page does).
    for (const [name, value] of securityHeaderEntries)
      if (!reply.hasHeader(name)) reply.header(name, value)
    return payload
  })

  // Rate limits per client IP on the API. With Redis the count is shared by every gateway
  // replica; when Redis is down the limiter lets requests through (skipOnError) rather than
  // turning an outage of the limiter into an outage of the app.
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

  // Same origin only: a write that a browser sends from another site is refused (CSRF), and no
  // CORS headers are ever sent. The site's own origins come from the configuration: taken from
  // Host, a rebound name was its own origin.
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

  const forwarder = createForwarder({ timeoutMs: config.UPSTREAM_TIMEOUT_MS })
  app.addHook('onClose', forwarder.close)
  const failed =
    (request: FastifyRequest, target: string) => (rep: FastifyReply, error: ForwardFailure) => {
      // The caller's own body went over its limit while streaming through.
      if (error instanceof AppError)
        return rep.code(error.statusCode).send(errorBody(error.code, error.message))
      const { status, body } = upstreamError(error)
      request.log.warn({ target, status, err: error.message }, 'upstream failed')
      return rep.code(status).send(body)
    }
  const forward = (request: FastifyRequest, reply: FastifyReply, origin: string, path: string) =>
    forwarder.forward(
      request,
      reply,
      origin,
      path,
      {
        'x-request-id': request.id,
        'x-forwarded-for': request.ip,
        'x-forwarded-proto': request.protocol,
        'x-forwarded-host': request.host,
      },
      failed(request, origin + (path.split('?')[0] ?? '')),
    )

  const routes = routingTable()
  const addRoute = (scope: FastifyInstance, route: Route) => {
    const base = upstreams[route.service]
    scope.route({
      method: route.method,
      url: route.url,
      bodyLimit: route.bodyLimit,
      config: { operationId: route.operationId },
      handler: (request, reply) => forward(request, reply, base, originFormOf(request.url)),
    })
  }

  // Small bodies are read whole and passed through untouched; the limit is counted on the bytes
  // received, so a chunked body without Content-Length is cut off at the limit too (413).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    )
    for (const route of routes)
      if (route.bodyLimit <= STREAMED_BODY_THRESHOLD) addRoute(scope, route)
  })

  // Large bodies (uploads): the caller's token is checked before a byte of the body is read,
  // at most MAX_CONCURRENT_UPLOADS are in flight, and the bytes stream through to the service
  // with back-pressure. 40 anonymous stalled 24 MiB uploads took a buffering gateway to 1.1 GB.
  const verifyAtEdge =
    verifyToken ??
    createTokenVerifier({
      keys: new URL('/api/auth/jwks.json', upstreams.auth),
      issuer: config.AUTH_ISSUER,
      audience: config.AUTH_AUDIENCE,
    })
  let uploadsInFlight = 0
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (request, payload, done) => {
      done(null, countedBody(payload, request.routeOptions.bodyLimit))
    })
    const accessOf = new Map(routes.map((r) => [r.operationId, r.access]))
    scope.addHook('onRequest', async (request, reply) => {
      await authorize(
        request,
        accessOf.get(request.routeOptions.config.operationId ?? '') ?? 'public',
        verifyAtEdge,
      )
      const declared = Number(request.headers['content-length'])
      if (declared > request.routeOptions.bodyLimit) throw bodyTooLarge()
      if (uploadsInFlight >= config.MAX_CONCURRENT_UPLOADS) {
        reply.header('retry-after', '5')
        throw new AppError(
          'uploads_busy',
          503,
          'Too many uploads at once. Please try again in a few seconds.',
        )
      }
      uploadsInFlight++
      reply.raw.once('close', () => uploadsInFlight--)
    })
    for (const route of routes)
      if (route.bodyLimit > STREAMED_BODY_THRESHOLD) addRoute(scope, route)
  })

  // Liveness of the gateway process itself (container healthchecks); readiness of the app is
  // /api/health.
  app.get('/health', { logLevel: 'warn', config: { anyHost: true } }, async () => ({
    status: 'ok' as const,
    service: 'gateway',
  }))

  // Contract operations like every other: limited per client. The report is shared (see
  // createHealthReport): asked per request it let a few clients load all six services.
  const healthReport = createHealthReport(upstreams)
  app.get('/api/health', { config: { operationId: 'getHealth' } }, async (_request, reply) => {
    const report = await healthReport()
    return reply
      .code(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report)
  })
  app.get<{ Params: { service: string } }>(
    '/api/health/:service',
    { config: { operationId: 'getServiceHealth' } },
    (request, reply) => {
      const name = request.params.service
      if (!(SERVICES as readonly string[]).includes(name)) {
        return reply.code(404).send(errorBody('not_found', `Unknown service ${name}`))
      }
      return forward(request, reply, upstreams[name as ServiceName], '/health')
    },
  )

  const dist = config.FRONTEND_DIST
  const hasFrontend = existsSync(join(dist, 'index.html'))
  const shells = loadShells(dist)
  if (hasFrontend) {
    await app.register(fastifyStatic, {
      root: dist,
      // Pages, `/` among them, are answered below: with a route shell where there is one.
      index: false,
      // Files are routed once at start; an unknown path never touches the disk.
      wildcard: false,
      // The build writes .br and .gz beside each text asset.
      preCompressed: true,
      setHeaders: (res, path) => {
        const url = path.slice(dist.length).replaceAll('\\', '/')
        if (HASHED_ASSET.test(url))
          res.header('cache-control', 'public, max-age=31536000, immutable')
        // The page, the service worker and the manifest are checked on every load: a new
        // build reaches users at once (the worker then fetches the new hashed assets).
        else if (url.endsWith('.html') || url === '/sw.js' || url.endsWith('.webmanifest'))
          res.header('cache-control', 'no-cache')
        else res.header('cache-control', 'public, max-age=3600')
      },
    })
  } else {
    app.log.warn({ dist }, 'frontend is not built: run `npm run build -w frontend`')
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !/\.[a-z0-9]+$/i.test(path)
    if (wantsPage && hasFrontend) {
      // The SPA renders its own routes, including 'Page Not Found'; a public page comes
      // pre-rendered in the visitor's language.
      if (shells.has(path)) reply.header('vary', 'Accept-Encoding, Accept-Language, Cookie')
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile(shells.fileFor(path, request.headers.cookie, request.headers['accept-language']))
    }
    return reply.code(404).send(errorBody('not_found', `No route for ${request.method} ${path}`))
  })
}

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // MUI (emotion) injects style elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:", // avatars from the identity provider
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ')

export function securityHeadersFor(config: GatewayConfig): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    // The sign-in popup reports back to its opener.
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(self), payment=()',
    ...(config.NODE_ENV === 'production'
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  }
}

/**
 * The request target as a path and query. An absolute-form target (`GET http://host/api/x`,
 * which HTTP/1.1 servers must accept) is reduced to its path; a target whose percent-encoding is
 * not valid UTF-8 is refused here rather than failing in the proxy with a 500.
 */
export function originFormOf(url: string): string {
  let path = url
  if (!url.startsWith('/')) {
    try {
      const absolute = new URL(url)
      path = `${absolute.pathname}${absolute.search}`
    } catch {
      throw malformedUrl()
    }
  }
  try {
    decodeURIComponent(path)
  } catch {
    throw malformedUrl()
  }
  return path
}

const malformedUrl = () =>
  new AppError('invalid_request', 400, 'The address is malformed (invalid percent-encoding)')

function bodyTooLarge() {
  return new AppError('payload_too_large', 413, 'Request body is too large')
}

/** The body as a stream that fails with 413 once more than `limit` bytes have come through. */
function countedBody(payload: Readable, limit: number): Readable {
  let received = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length
      if (received > limit) callback(bodyTooLarge())
      else callback(null, chunk)
    },
  })
  payload.on('error', (err) => counted.destroy(err))
  return payload.pipe(counted)
}

function misdirected() {
  return new AppError('misdirected_request', 421, 'This server does not answer for that host name')
}

function crossOrigin() {
  return new AppError('cross_origin_refused', 403, 'Cross-origin requests are not allowed')
}

/** Upstream failures in the contract's error shape: down → 503, slow → 504. */
export function upstreamError(error: ForwardFailure) {
  if (error.code === 'UND_ERR_HEADERS_TIMEOUT') {
    return {
      status: 504,
      body: errorBody('upstream_timeout', 'The service took too long to answer. Please try again.'),
    }
  }
  return {
    status: 503,
    body: errorBody(
      'service_unavailable',
      'This part of CRV Training is unavailable right now. Please try again shortly.',
    ),
  }
}

export default fp(gatewayApp, { name: 'gateway-app' })
