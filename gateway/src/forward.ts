import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Pool } from 'undici'
import type { IncomingHttpHeaders } from 'node:http'

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1): never passed on in
 * either direction. `expect` too: Node has answered the client's `100-continue` already, and
 * undici refuses the header outright. `host` is the upstream's, set by undici.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'http2-settings',
  'expect',
  'host',
])

const ignore = () => undefined

/** A loop, not `/\/+$/`: that pattern backtracks polynomially on a long run of slashes. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length
  while (end > 0 && path[end - 1] === '/') end--
  return path.slice(0, end)
}

type Headers = Record<string, string | string[]>

/** The message's own headers: hop-by-hop ones, and those the Connection header names, left out. */
export function endToEnd(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  /** Where to put them (headers already set there may be replaced); a new object by default. */
  into: Headers = {},
): Headers {
  const named = headers.connection
  const listed =
    typeof named === 'string' && named !== 'keep-alive' && named !== 'close'
      ? new Set(named.split(',').map((name) => name.trim().toLowerCase()))
      : undefined
  const kept = into
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined || HOP_BY_HOP.has(name) || listed?.has(name)) continue
    kept[name] = value
  }
  return kept
}

export interface ForwarderOptions {
  /** How long the service may take to send its headers, and between body chunks. */
  timeoutMs: number
}

export type ForwardFailure = Error & { code?: string }

/**
 * The gateway's proxy: one keep-alive undici pool per service, each request passed on with its
 * end-to-end headers and its body (bytes already read, or a stream), the answer streamed back.
 * It replaced @fastify/reply-from (docs/decisions.md [12], 'The gateway forwards with undici'),
 * which asked a service that answered a GET with 503 up to ten times more, with waits between,
 * and passed the service's connection headers back to the caller.
 */
/** A service's keep-alive pool, and the path its URL may carry (behind a path-routing ingress). */
export interface Upstream {
  pool: Pool
  prefix: string
}

/** The pool for the service at `base`, with the gateway's settings (the fast path uses it too). */
export function upstreamPool(base: string, timeoutMs: number): Upstream {
  const url = new URL(base)
  return {
    pool: new Pool(url.origin, {
      connections: 64,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    }),
    prefix: withoutTrailingSlashes(url.pathname),
  }
}

export function createForwarder({ timeoutMs }: ForwarderOptions) {
  const upstreams = new Map<string, Upstream>()
  const upstreamFor = (base: string) => {
    let upstream = upstreams.get(base)
    if (!upstream) {
      upstream = upstreamPool(base, timeoutMs)
      upstreams.set(base, upstream)
    }
    return upstream
  }

  /**
   * Sends `request` to the service at `base` (its URL), at `path`, and answers with what comes
   * back. A failure before the service's headers arrive goes to `onError`, which answers in the
   * contract's error shape.
   */
  async function forward(
    request: FastifyRequest,
    reply: FastifyReply,
    base: string,
    path: string,
    extraHeaders: Headers,
    onError: (reply: FastifyReply, error: ForwardFailure) => FastifyReply,
  ): Promise<FastifyReply> {
    const headers = endToEnd(request.headers)
    for (const name in extraHeaders) headers[name] = extraHeaders[name] as string | string[]
    let body: Buffer | Readable | undefined
    if (Buffer.isBuffer(request.body)) {
      body = request.body
      headers['content-length'] = String(body.length)
      headers['content-type'] ??= 'application/octet-stream'
    } else if (request.body instanceof Readable) {
      body = request.body
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      headers['content-length'] = '0'
    }
    let answer: Awaited<ReturnType<Pool['request']>>
    try {
      const { pool, prefix } = upstreamFor(base)
      answer = await pool.request({
        method: request.method as 'GET',
        path: prefix + path,
        headers,
        body: body ?? null,
      })
    } catch (error) {
      return onError(reply, error as ForwardFailure)
    }
    if (reply.raw.destroyed) {
      // The caller is gone: nothing to answer, and the service's answer is not read.
      answer.body.on('error', ignore).destroy()
      return reply
    }
    reply.code(answer.statusCode)
    const answerHeaders = endToEnd(answer.headers)
    for (const name in answerHeaders) reply.header(name, answerHeaders[name])
    // An HTTP/1 connection cannot be reused until the caller's body has been read whole.
    if (!request.raw.complete) reply.header('connection', 'close')
    return reply.send(answer.body)
  }

  async function close() {
    await Promise.all([...upstreams.values()].map(({ pool }) => pool.close()))
    upstreams.clear()
  }

  return { forward, close }
}
