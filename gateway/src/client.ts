// Who sent a request, as Fastify reads it from TRUST_PROXY (request.ip, .host and .protocol), for
// the fast path, which answers before Fastify has made a request object. Behind a trusted proxy
// the client's address, host and scheme come from its X-Forwarded-* headers; from anyone else
// those headers are ignored. gateway/test/fast-path.test.ts checks that both paths agree.
import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'
import proxyAddr from '@fastify/proxy-addr'
import { trustProxyOf } from '@crv/kit'
import type { BaseConfig } from '@crv/kit'

export interface Client {
  ip: string
  host: string
  protocol: 'http' | 'https' | string
}

/** The last value of a header sent as a list (the one the nearest proxy added). */
function lastEntry(value: string): string {
  const comma = value.lastIndexOf(',')
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim()
}

const ownProtocol = (req: IncomingMessage) =>
  (req.socket as TLSSocket).encrypted ? 'https' : 'http'

/** Reads a request's client as Fastify does with the same TRUST_PROXY. */
export function clientReader(config: Pick<BaseConfig, 'TRUST_PROXY'>) {
  const trust = trustProxyOf(config)
  if (trust === false)
    return (req: IncomingMessage): Client => ({
      ip: req.socket.remoteAddress ?? '',
      host: req.headers.host ?? '',
      protocol: ownProtocol(req),
    })
  const trusted =
    trust === true ? () => true : proxyAddr.compile(trust.split(',').map((item) => item.trim()))
  return (req: IncomingMessage): Client => {
    const { headers, socket } = req
    const forwardedFor = headers['x-forwarded-for']
    const forwardedHost = headers['x-forwarded-host']
    const forwardedProto = headers['x-forwarded-proto']
    // Asked only when a forwarded header is there: parsing the peer's address on every request
    // was 2 % of the fast path's CPU.
    const viaProxy =
      (Boolean(forwardedHost) || Boolean(forwardedProto)) &&
      socket.remoteAddress !== undefined &&
      trusted(socket.remoteAddress, 0)
    let ip = socket.remoteAddress ?? ''
    if (forwardedFor !== undefined) {
      const addresses = proxyAddr.all(req, trusted)
      ip = addresses[addresses.length - 1] ?? ''
    }
    return {
      ip,
      host:
        viaProxy && typeof forwardedHost === 'string' && forwardedHost
          ? lastEntry(forwardedHost)
          : (headers.host ?? ''),
      protocol:
        viaProxy && typeof forwardedProto === 'string' && forwardedProto
          ? lastEntry(forwardedProto)
          : ownProtocol(req),
    }
  }
}
