import Fastify from 'fastify'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import closeWithGrace from 'close-with-grace'
import type { BaseConfig } from './config.ts'
import { ConfigError } from './config.ts'
import { installErrorHandlers } from './errors.ts'
import { fastifyBaseOptions, installRequestLog } from './logger.ts'
import { createRevocationCheck, createTokenVerifier, withRevocationCheck } from './auth.ts'
import type { TokenVerifier } from './auth.ts'
import { createValidators, registerContractRoutes, sharedSchemas } from './contract.ts'
import type { ContractValidators, Handlers, OperationId } from './contract.ts'
import { createRedis, waitUntilReady } from './redis.ts'
import type { Redis } from './redis.ts'

export type ReadinessCheck = () => Promise<void>

declare module 'fastify' {
  interface FastifyInstance {
    config: BaseConfig
    /** Dependency checks run by `GET /ready`. */
    readiness: Map<string, ReadinessCheck>
    verifyToken: TokenVerifier
    validators: ContractValidators
    /** The service's contract operations with and without a handler (those answer 501). */
    operations: { implemented: string[]; pending: string[] }
  }
}

export interface BaseOptions {
  config: BaseConfig
  /** Defaults to the remote JWKS of `AUTH_JWKS_URL`. */
  verifyToken?: TokenVerifier
}

const startedAt = Date.now()

/** The external layer every service loads first: errors, logs, validation, health, token checks. */
export const basePlugin = fp<BaseOptions>(
  async (app, { config, verifyToken }) => {
    installErrorHandlers(app)
    installRequestLog(app)
    // A text/plain body would skip JSON validation; only JSON (and what a service adds) is accepted.
    app.removeContentTypeParser('text/plain')
    const validators = createValidators()
    app.setValidatorCompiler(({ schema, httpPart }) =>
      validators.compile(schema as Record<string, unknown>, httpPart),
    )
    app.addSchema(sharedSchemas())
    app.decorate('config', config)
    app.decorate('validators', validators)
    app.decorate('readiness', new Map<string, ReadinessCheck>())
    app.decorate(
      'verifyToken',
      verifyToken ??
        withRevocationCheck(
          createTokenVerifier({
            keys: new URL(config.AUTH_JWKS_URL),
            issuer: config.AUTH_ISSUER,
            audience: config.AUTH_AUDIENCE,
          }),
          // The auth service owns the revocation list; it answers beside its key set.
          createRevocationCheck({
            url: new URL('/internal/token-status', config.AUTH_JWKS_URL),
            cacheMs: config.AUTH_REVOCATION_CACHE_MS,
          }),
        ),
    )
    app.decorateRequest('user', null)

    app.get('/health', { logLevel: 'warn' }, async () => ({
      status: 'ok' as const,
      service: config.SERVICE_NAME,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    }))
    app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
      const checks: Record<string, string> = {}
      await Promise.all(
        [...app.readiness].map(async ([name, check]) => {
          try {
            await withTimeout(check(), 2_000)
            checks[name] = 'ok'
          } catch (err) {
            checks[name] = (err as Error).message || 'failed'
          }
        }),
      )
      const ready = Object.values(checks).every((v) => v === 'ok')
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not_ready', service: config.SERVICE_NAME, checks })
    })
  },
  { name: 'crv-base', fastify: '5.x' },
)

export interface ContractRoutesPluginOptions {
  tag: string
  handlers: Handlers
  revokedMayCall?: readonly OperationId[]
}

/** The routes layer: the service's share of the contract. */
export const contractRoutesPlugin = fp<ContractRoutesPluginOptions>(
  async (app, { tag, handlers, revokedMayCall }) => {
    app.decorate(
      'operations',
      registerContractRoutes(app, {
        tag,
        handlers,
        verify: app.verifyToken,
        ...(revokedMayCall ? { revokedMayCall } : {}),
        validators: app.validators,
        validateResponses: app.config.VALIDATE_RESPONSES ?? app.config.NODE_ENV !== 'production',
      }),
    )
  },
  { name: 'crv-contract-routes', dependencies: ['crv-base'] },
)

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null
  }
}

/** Redis when `url` is set (null otherwise: callers fall back to in-process behaviour). */
export const redisPlugin = fp<{ url: string | undefined }>(
  async (app, { url }) => {
    if (!url) {
      app.decorate('redis', null)
      return
    }
    const redis = createRedis(url, { name: app.config.SERVICE_NAME })
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis connection error'))
    // Commands fail fast while disconnected, so give the first connection a moment; a Redis
    // that is down at start leaves the service up but not ready.
    await waitUntilReady(redis, 2_000)
    app.addHook('onClose', async () => {
      redis.disconnect()
    })
    app.decorate('redis', redis)
    app.readiness.set('redis', async () => {
      await redis.ping()
    })
  },
  { name: 'crv-redis', dependencies: ['crv-base'] },
)

export function createApp(config: BaseConfig): FastifyInstance {
  return Fastify(fastifyBaseOptions(config))
}

/**
 * The server entry: builds the app, listens, and on SIGTERM/SIGINT stops accepting, lets
 * in-flight requests finish (up to the grace period) and closes pools.
 */
export async function runServer<C extends BaseConfig>(
  load: () => C,
  build: (config: C) => Promise<FastifyInstance>,
): Promise<FastifyInstance> {
  let config: C
  try {
    config = load()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(78)
    }
    throw err
  }
  let app: FastifyInstance
  try {
    app = await build(config)
  } catch (err) {
    // A dependency that is down at start (database unreachable, migration failing): say so
    // in one line and exit; the launcher or the orchestrator restarts with backoff.
    process.stderr.write(`${config.SERVICE_NAME} could not start: ${(err as Error).message}\n`)
    process.exit(err instanceof ConfigError ? 78 : 1)
  }
  app.server.keepAliveTimeout = 65_000
  app.server.requestTimeout = 60_000
  app.server.headersTimeout = 66_000
  closeWithGrace({ delay: config.SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down')
    await app.close()
  })
  await app.listen({ host: config.HOST, port: config.PORT })
  return app
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
    promise.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(timer)
        reject(e instanceof Error ? e : new Error(String(e)))
      },
    )
  })
}

export type { FastifyPluginAsync }
