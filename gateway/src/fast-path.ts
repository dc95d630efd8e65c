// The fast path: a GET of a forwarded contract operation is answered on node:http itself, before
// Fastify makes a request and a reply of it, with everything the Fastify path gives it: the host
// check, the client as TRUST_PROXY reads it, the request id, the rate limit (one count with the
// Fastify path's), the forwarded headers, the security headers, the request log line and the
// error shape when a service is down or slow. On 2 cores it read 0.66-0.84× a bare node:http +
// undici forwarder and used 20-25 % less CPU per request than Fastify's routing and hooks
// (docs/decisions/gateway-fast-path.md).
//
// A service's liveness through the gateway (getServiceHealth) takes this path too.
//
// Everything else goes to Fastify: other methods, a GET with a body, an address that is not
// origin-form or not valid percent-encoding, a path no forwarded GET matches, a host the gateway
// does not answer (Fastify gives the 421), and every request once the gateway is closing.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import FindMyWay from 'find-my-way'
import type { FastifyBaseLogger } from 'fastify'
import { SLOW_REQUEST_MS, contractOperations, errorBody, requestIdOf, toErrorReply } from '@crv/kit'
import type { Taken } from '@crv/kit'
import { clientReader } from './client.ts'
import { SERVICES } from './config.ts'
import type { GatewayConfig, ServiceName } from './config.ts'
import { endToEnd, upstreamPool } from './forward.ts'
import type { ForwardFailure, Upstream } from './forward.ts'
import { SERVICE_LIVENESS_PATH } from './health.ts'
import { allowedHostnames, hostnameOf } from './hosts.ts'
import { STREAMED_BODY_THRESHOLD, upstreamError } from './proxy.ts'
import { rateLimitHeaders, rateLimited } from './rate-limit.ts'
import type { ApiLimit } from './rate-limit.ts'
import type { Route } from './routes.ts'
import { isPage, securityHeadersFor } from './security-headers.ts'

export interface FastPathOptions {
  config: GatewayConfig
  upstreams: Record<ServiceName, string>
  routes: Route[]
  log: FastifyBaseLogger
  apiLimit: ApiLimit
}

interface Found {
  upstream: Upstream
  route: string
  /** The service's own path, where it is not the gateway's (a service's liveness: /health). */
  path?: string
}

export type FastPath = ReturnType<typeof createFastPath>

/** pino's levels: a line below the logger's level is never made. */
const LEVELS: Record<string, number | undefined> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
}

/** `handle` answers a request and says true, or says false and leaves it to Fastify. */
export function createFastPath({ config, upstreams, routes, log, apiLimit }: FastPathOptions) {
  // Fastify's own router with Fastify's defaults: a path it would refuse finds nothing here.
  const router = FindMyWay({ maxParamLength: 100 })
  const pools = new Map<string, Upstream>()
  /** One keep-alive pool per service. */
  const poolOf = (service: ServiceName) => {
    const base = upstreams[service]
    let upstream = pools.get(base)
    if (!upstream) {
      upstream = upstreamPool(base, config.UPSTREAM_TIMEOUT_MS)
      pools.set(base, upstream)
    }
    return upstream
  }
  for (const route of routes) {
    if (route.method !== 'GET' || route.bodyLimit > STREAMED_BODY_THRESHOLD) continue
    const found: Found = { upstream: poolOf(route.service), route: route.url }
    router.on('GET', route.url, () => undefined, found)
  }
  // A service's liveness (getServiceHealth, health-routes.ts): its own /health, with nothing of
  // the caller's path or query. An unknown service's name finds nothing here (Fastify's 404).
  const liveness = contractOperations().find((o) => o.operationId === 'getServiceHealth')
  if (liveness) {
    for (const service of SERVICES) {
      const found: Found = {
        upstream: poolOf(service),
        route: liveness.url,
        path: SERVICE_LIVENESS_PATH,
      }
      router.on('GET', liveness.url.replace(':service', service), () => undefined, found)
    }
  }
  const hosts = allowedHostnames(config)
  const answered = (host: string | undefined) => hosts.has(hostnameOf(host) ?? '')
  const clientOf = clientReader(config)
  const security = securityHeadersFor(config)
  const pageEntries = Object.entries(security.page)
  const dataEntries = Object.entries(security.data)
  let open = true
  /** Requests this path has answered: the tests' proof that it, not Fastify, answered. */
  let answeredCount = 0

  function send(
    res: ServerResponse,
    status: number,
    headers: OutgoingHttpHeaders,
    body: unknown,
  ): void {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      ...headers,
      ...security.data,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    })
    res.end(text)
  }

  /** The line installRequestLog (kit) writes for a Fastify request, at the same levels. */
  function logLine(id: string, url: string, route: string, status: number, ms: number) {
    const level =
      status >= 500 ? 'error' : ms >= SLOW_REQUEST_MS ? 'warn' : status >= 400 ? 'info' : 'debug'
    if ((LEVELS[log.level] ?? 0) > (LEVELS[level] ?? 0)) return
    const line = {
      reqId: id,
      method: 'GET',
      route,
      url: url.length > 200 ? `${url.slice(0, 200)}…` : url,
      status,
      ms: Math.round(ms * 100) / 100,
    }
    log[level](line, level === 'warn' ? 'slow request' : 'request')
  }

  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? ''
    if (
      !open ||
      req.method !== 'GET' ||
      url.charCodeAt(0) !== 47 /* '/' */ ||
      req.headers['content-length'] !== undefined ||
      req.headers['transfer-encoding'] !== undefined
    )
      return false
    const match = router.find('GET', url)
    if (!match) return false
    try {
      decodeURIComponent(url)
    } catch {
      return false
    }
    const client = clientOf(req)
    if (!answered(req.headers.host) || !answered(client.host)) return false

    answeredCount++
    const { upstream, route, path } = match.store as Found
    const target = upstream.prefix + (path ?? url)
    const started = performance.now()
    const id = requestIdOf(req)
    res.once('close', () => logLine(id, url, route, res.statusCode, performance.now() - started))

    const forward = (taken: Taken) => {
      const limitHeaders = rateLimitHeaders(taken, config.RATE_LIMIT_MAX)
      if (taken.wait > 0) {
        const refused = rateLimited(taken.wait)
        send(
          res,
          refused.statusCode,
          { 'x-request-id': id, ...limitHeaders },
          errorBody(refused.code, refused.message, refused.details),
        )
        return
      }
      const headers = endToEnd(req.headers)
      headers['x-request-id'] = id
      headers['x-forwarded-for'] = client.ip
      headers['x-forwarded-proto'] = client.protocol
      headers['x-forwarded-host'] = client.host
      upstream.pool.request({ method: 'GET', path: target, headers, body: null }).then(
        (answer) => {
          if (res.destroyed) {
            // The caller is gone: nothing to answer, and the service's answer is not read.
            answer.body.on('error', () => undefined).destroy()
            return
          }
          const out: Record<string, string | string[]> = limitHeaders
          out['x-request-id'] = id
          endToEnd(answer.headers, out)
          // A service may set its own policy for a response (the sign-in popup's page does).
          const entries = isPage(out['content-type']) ? pageEntries : dataEntries
          for (const [name, value] of entries) out[name] ??= value
          res.writeHead(answer.statusCode, out)
          answer.body.on('error', () => res.destroy())
          answer.body.pipe(res)
        },
        (error: ForwardFailure) => {
          const { status, body } = upstreamError(error)
          log.warn(
            {
              reqId: id,
              target: target.split('?')[0],
              status,
              err: error.message,
            },
            'upstream failed',
          )
          if (!res.destroyed) send(res, status, { 'x-request-id': id, ...limitHeaders }, body)
        },
      )
    }

    const taken = apiLimit(client.ip)
    if (taken instanceof Promise)
      taken.then(forward, (err: Error) => {
        const { status, body } = toErrorReply(err)
        log.error({ reqId: id, err }, 'request failed')
        send(res, status, { 'x-request-id': id }, body)
      })
    else forward(taken)
    return true
  }

  return {
    handle,
    /** From now on every request goes to Fastify (which answers 503 while closing). */
    stop() {
      open = false
    },
    async close() {
      open = false
      await Promise.all([...pools.values()].map(({ pool }) => pool.close()))
    },
    get answered() {
      return answeredCount
    },
  }
}
