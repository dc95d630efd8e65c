import { z } from 'zod'
import { assertPublicUrlForProduction, baseConfigShape, env, loadConfig } from '@crv/kit'
import { fileURLToPath } from 'node:url'

export const SERVICES = ['auth', 'descriptors', 'media', 'ai', 'astro', 'practice'] as const
export type ServiceName = (typeof SERVICES)[number]

export const configShape = {
  ...baseConfigShape('gateway', 8080),
  AUTH_URL: z.url().default('http://127.0.0.1:8081'),
  DESCRIPTORS_URL: z.url().default('http://127.0.0.1:8082'),
  MEDIA_URL: z.url().default('http://127.0.0.1:8083'),
  AI_URL: z.url().default('http://127.0.0.1:8084'),
  ASTRO_URL: z.url().default('http://127.0.0.1:8085'),
  PRACTICE_URL: z.url().default('http://127.0.0.1:8086'),
  /** The built SPA; the gateway serves it with the API on one origin. */
  FRONTEND_DIST: z.string().default(fileURLToPath(new URL('../../frontend/dist', import.meta.url))),
  /**
   * The public origin (e.g. https://crv.example.org): the host the gateway answers and the origin
   * writes must come from (any other Host gets 421, a write from another origin 403). Production
   * refuses to start without an https one.
   */
  PUBLIC_URL: z.url().optional(),
  /** Further origins allowed to write; their hosts are answered too. */
  ALLOWED_ORIGINS: env.list(),
  /** Further host names answered (a proxy that rewrites Host, an internal name monitors use). */
  ALLOWED_HOSTS: env.list(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  REDIS_URL: z.url().optional(),
  /** Large uploads streaming through at once; more get 503 with Retry-After. */
  MAX_CONCURRENT_UPLOADS: z.coerce.number().int().min(1).max(1000).default(8),
  /**
   * GETs of forwarded operations answered on node:http before Fastify (fast-path.ts); `false`
   * sends every request through Fastify's routes and hooks, as a comparison or a way out.
   */
  FAST_PATH: env.bool.default(true),
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(configShape, source)
  assertPublicUrlForProduction(config)
  return config
}

export function serviceUrls(config: GatewayConfig): Record<ServiceName, string> {
  return {
    auth: config.AUTH_URL,
    descriptors: config.DESCRIPTORS_URL,
    media: config.MEDIA_URL,
    ai: config.AI_URL,
    astro: config.ASTRO_URL,
    practice: config.PRACTICE_URL,
  }
}
