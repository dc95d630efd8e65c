// Security headers on every answer, computed once (helmet rebuilt its policy string on every
// request): a page's set for what a browser draws, a short one for the API's data.
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

/**
 * What is no page (the API's data, clips and pictures) needs no page's policy: it may load
 * nothing and be framed by nothing (OWASP's REST Security Cheat Sheet). Shorter by 400 bytes on
 * every API answer, which the gateway's throughput pays for (docs/decisions/gateway-fast-path.md).
 */
const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"

export interface SecurityHeaders {
  /** For a page a browser draws: the app's files and HTML, the API's HTML pages included. */
  page: Record<string, string>
  /** For the API's other answers: JSON, audio, pictures. */
  data: Record<string, string>
}

export function securityHeadersFor(config: GatewayConfig): SecurityHeaders {
  const transport: Record<string, string> =
    config.NODE_ENV === 'production'
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}
  return {
    page: {
      'content-security-policy': CONTENT_SECURITY_POLICY,
      // The sign-in popup reports back to its opener.
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(self), payment=()',
      ...transport,
    },
    data: {
      'content-security-policy': DATA_POLICY,
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      ...transport,
    },
  }
}

/** Whether an answer is a page (HTML), by its content type. */
export const isPage = (contentType: unknown): boolean =>
  typeof contentType === 'string' && contentType.startsWith('text/html')

async function securityHeaders(app: FastifyInstance, { config }: { config: GatewayConfig }) {
  const { page, data } = securityHeadersFor(config)
  const pageEntries = Object.entries(page)
  const dataEntries = Object.entries(data)
  app.addHook('onSend', async (request, reply, payload) => {
    const entries =
      request.url.startsWith('/api/') && !isPage(reply.getHeader('content-type'))
        ? dataEntries
        : pageEntries
    // A service may set its own policy for a response (the sign-in popup's page does).
    for (const [name, value] of entries) if (!reply.hasHeader(name)) reply.header(name, value)
    return payload
  })
}

export default fp(securityHeaders, { name: 'gateway-security-headers' })
