// The contract's operations, forwarded to the service their tag names: small bodies read whole,
// large ones (uploads) streamed through after the caller's token is checked at the edge.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Transform } from 'node:stream'
import type { Readable } from 'node:stream'
import { AppError, authorize, createTokenVerifier, errorBody } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import type { GatewayConfig, ServiceName } from './config.ts'
import { createForwarder } from './forward.ts'
import type { ForwardFailure } from './forward.ts'
import type { Route } from './routes.ts'

/** Bodies above this are streamed to the service, never held whole in the gateway's memory. */
export const STREAMED_BODY_THRESHOLD = 1024 * 1024

/** Sends the request on to `origin` + `path` and the service's answer back. */
export type Forward = (
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string,
  path: string,
) => ReturnType<ReturnType<typeof createForwarder>['forward']>

/** The forwarder of the gateway (closed with the app), with the headers a service reads. */
export function upstreamForwarding(app: FastifyInstance, config: GatewayConfig): Forward {
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
  return (request, reply, origin, path) =>
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
}

export interface ProxyOptions {
  config: GatewayConfig
  upstreams: Record<ServiceName, string>
  /** The routing table (routes.ts): every operation a service answers. */
  routes: Route[]
  forward: Forward
  /** Defaults to the auth service's published keys (AUTH_URL's JWKS). */
  verifyToken?: TokenVerifier | undefined
}

async function proxy(
  app: FastifyInstance,
  { config, upstreams, routes, forward, verifyToken }: ProxyOptions,
) {
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
}

export default fp(proxy, { name: 'gateway-proxy' })

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
