// Security headers on every answer, computed once (helmet rebuilt its policy string on every
// request).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { GatewayConfig } from './config.ts'

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

async function securityHeaders(app: FastifyInstance, { config }: { config: GatewayConfig }) {
  const securityHeaderEntries = Object.entries(securityHeadersFor(config))
  app.addHook('onSend', async (_request, reply, payload) => {
    // A service may set its own policy for a response (the sign-in popup's page does).
    for (const [name, value] of securityHeaderEntries)
      if (!reply.hasHeader(name)) reply.header(name, value)
    return payload
  })
}

export default fp(securityHeaders, { name: 'gateway-security-headers' })
