// One process of the gateway-peers bench (bench/scenarios/gateway-peers.ts): the shared upstream
// or one Node proxy in front of it, each in a process of its own so that its CPU time can be
// read from /proc alone. `node bench/peer-proxies.ts <kind> <port> [upstream-url] [amount]`:
// kinds upstream, bare, bare-late (waits <amount> ms per request), bare-spin (burns <amount> µs
// of CPU per request), fast-gateway, fastify-http-proxy, fastify-forwarder (Fastify without hooks
// and the gateway's own forwarder: what the gateway costs before its features).
import { createServer } from 'node:http'
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { Pool } from 'undici'

const [kind, portText, upstream = '', amountText = '0'] = process.argv.slice(2)
const port = Number(portText)
const amount = Number(amountText)
const host = '127.0.0.1'

// The one upstream every proxy forwards to: a small JSON answer, the same for every path.
const ANSWER = JSON.stringify({ status: 'ok', service: 'upstream', uptimeSeconds: 1 })

const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host'])

function without(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) {
  const kept: OutgoingHttpHeaders = {}
  for (const name in headers) if (!CONNECTION_HEADERS.has(name)) kept[name] = headers[name]
  return kept
}

function spin(micros: number) {
  const until = process.hrtime.bigint() + BigInt(micros * 1000)
  while (process.hrtime.bigint() < until);
}

/**
 * The least a Node proxy can do: node:http in, one keep-alive undici pool out (the gateway's
 * own settings), connection headers dropped, the answer streamed back. Node's ceiling here.
 */
function bareForwarder(before: (() => Promise<void>) | undefined) {
  const pool = new Pool(new URL(upstream).origin, {
    connections: 64,
    pipelining: 1,
    keepAliveTimeout: 30_000,
  })
  return createServer((req, res) => {
    void (async () => {
      try {
        if (before) await before()
        const answer = await pool.request({
          method: req.method as 'GET',
          path: req.url ?? '/',
          headers: without(req.headers) as Record<string, string>,
          body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
        })
        res.writeHead(answer.statusCode, without(answer.headers))
        answer.body.pipe(res)
      } catch {
        res.statusCode = 502
        res.end()
      }
    })()
  })
}

async function main() {
  switch (kind) {
    case 'upstream':
      createServer((req, res) => {
        req.resume()
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(ANSWER),
        })
        res.end(ANSWER)
      }).listen(port, host)
      return
    case 'bare':
      bareForwarder(undefined).listen(port, host)
      return
    case 'bare-late':
      bareForwarder(() => sleep(amount)).listen(port, host)
      return
    case 'bare-spin':
      bareForwarder(async () => spin(amount)).listen(port, host)
      return
    case 'fast-gateway': {
      // The package's defaults: restana, fast-proxy-lite on a keep-alive http.Agent.
      const { default: gateway } = await import('fast-gateway')
      await gateway({
        routes: [{ prefix: '/api', prefixRewrite: '/api', target: upstream }],
      }).start(port, host)
      return
    }
    case 'fastify-http-proxy': {
      // The package's defaults: Fastify without a logger, @fastify/reply-from on undici.
      const { default: Fastify } = await import('fastify')
      const { default: httpProxy } = await import('@fastify/http-proxy')
      const app = Fastify()
      await app.register(httpProxy, { upstream, prefix: '/api', rewritePrefix: '/api' })
      await app.listen({ port, host })
      return
    }
    case 'fastify-forwarder': {
      const { default: Fastify } = await import('fastify')
      const { createForwarder } = await import('../gateway/src/forward.ts')
      const forwarder = createForwarder({ timeoutMs: 15_000 })
      const app = Fastify()
      app.get('/api/*', (request, reply) =>
        forwarder.forward(request, reply, upstream, request.url, {}, (rep) => rep.code(502).send()),
      )
      await app.listen({ port, host })
      return
    }
    default:
      throw new Error(`unknown peer ${kind}`)
  }
}

// An ordinary exit on SIGTERM, so that `--cpu-prof` writes its profile when the bench stops it.
process.once('SIGTERM', () => process.exit(0))
await main()
