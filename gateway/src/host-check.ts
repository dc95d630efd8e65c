// Only the hosts the configuration names (DNS rebinding): first, before any other work. Both the
// Host header and a trusted proxy's X-Forwarded-Host must name one: a rebound page on this
// machine reaches the gateway from loopback, which is trusted, and may set X-Forwarded-Host.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '@crv/kit'
import type { GatewayConfig } from './config.ts'
import { allowedHostnames, hostnameOf } from './hosts.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered whatever the Host: liveness probes name the pod or container by its address. */
    anyHost?: boolean
  }
}

function misdirected() {
  return new AppError('misdirected_request', 421, 'This server does not answer for that host name')
}

async function hostCheck(app: FastifyInstance, { config }: { config: GatewayConfig }) {
  const hosts = allowedHostnames(config)
  const answered = (host: string | undefined) => hosts.has(hostnameOf(host) ?? '')
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.anyHost) return
    if (!answered(request.headers.host) || !answered(request.host)) throw misdirected()
  })
}

export default fp(hostCheck, { name: 'gateway-host-check' })
