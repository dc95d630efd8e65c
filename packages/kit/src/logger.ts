import { randomUUID } from 'node:crypto'
import { LogController } from 'fastify'
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { BaseConfig } from './config.ts'
import { errorBody } from './errors.ts'

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/

/** Keeps an upstream request id (the gateway's) so one id follows a request across services. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

export function loggerOptions(config: Pick<BaseConfig, 'LOG_LEVEL' | 'SERVICE_NAME'>) {
  return {
    level: config.LOG_LEVEL,
    base: { service: config.SERVICE_NAME },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  }
}

/** TRUST_PROXY as Fastify takes it: every proxy, none, or the addresses and ranges named. */
export function trustProxyOf(config: Pick<BaseConfig, 'TRUST_PROXY'>): boolean | string {
  if (config.TRUST_PROXY === 'true') return true
  if (config.TRUST_PROXY === 'false') return false
  return config.TRUST_PROXY
}

export function fastifyBaseOptions(config: BaseConfig): FastifyServerOptions {
  return {
    logger: loggerOptions(config),
    genReqId: requestIdOf,
    requestIdHeader: false,
    // Our own one line per request replaces Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: true }),
    trustProxy: trustProxyOf(config),
    return503OnClosing: true,
    // Start-up work (migrations, the vocabulary seed, speech engines) can take longer than
    // Fastify's 10 s on a busy machine; the launcher's own readiness wait is the limit.
    pluginTimeout: 120_000,
    // Addresses the router refuses before any route runs still answer in the error shape.
    frameworkErrors: refusedAddress,
    clientErrorHandler: malformedRequest,
  }
}

/**
 * Requests Node's parser refuses (conflicting lengths, Transfer-Encoding with Content-Length, a
 * body that never ends): answered in the error shape, then the connection is closed.
 */
function malformedRequest(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, reason, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'request_timeout', 'The request took too long to arrive']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            'headers_too_large',
            'The request headers are too large',
          ]
        : [400, 'Bad Request', 'bad_request', 'The request is malformed']
  const body = JSON.stringify(errorBody(code, message))
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}

/** Addresses the router refuses before any route runs still answer in the error shape. */
function refusedAddress(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
  request.log.info({ code: error.code }, 'address refused by the router')
  void reply
    .code(tooLong ? 414 : 400)
    .send(
      tooLong
        ? errorBody('url_too_long', 'A part of the address is too long')
        : errorBody('bad_url', 'The address is not valid'),
    )
}

/** A request slower than this is logged whatever the level's setting for ordinary requests. */
export const SLOW_REQUEST_MS = 1000

/**
 * One log line per request: id, user, route, status, duration. Ordinary successful requests are
 * logged at debug (at info the gateway and a service wrote two lines for every click: 5,700 in
 * half an hour of light use); client errors at info, slow requests at warn, failures at error.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      url: request.url.length > 200 ? `${request.url.slice(0, 200)}…` : request.url,
      status,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      user: request.user?.id,
    }
    if (status >= 500) request.log.error(line, 'request')
    else if (reply.elapsedTime >= SLOW_REQUEST_MS) request.log.warn(line, 'slow request')
    else if (status >= 400) request.log.info(line, 'request')
    else request.log.debug(line, 'request')
  })
}
