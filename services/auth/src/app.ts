import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import cookie from '@fastify/cookie'
import { createLocalJWKSet } from 'jose'
import {
  basePlugin,
  contractRoutesPlugin,
  createTokenVerifier,
  withRevocationCheck,
} from '@crv/kit'
import type { RevocationCheck, TokenVerifier } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { AuthConfig } from './config.ts'
import type { AuthServices } from './deps.ts'
import { loadSigningKeys } from './keys.ts'
import { createSmsSender } from './sms.ts'
import type { SmsSender } from './sms.ts'
import { createBotCheck } from './bot-check.ts'
import type { BotCheck } from './bot-check.ts'
import { accountRoutes } from './account/routes.ts'
import { oidcRoutes } from './oidc/routes.ts'
import { phoneRoutes } from './phone/routes.ts'
import { sessionRoutes } from './sessions/routes.ts'
import { isRevoked } from './revocations/revocations.ts'
import { tokenStatusRoute } from './revocations/routes.ts'

export interface AuthAppOptions {
  config: AuthConfig
  verifyToken?: TokenVerifier
  /** Replaces the configured SMS provider (tests of the Twilio and SNS adapters). */
  sms?: SmsSender
  botCheck?: BotCheck
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthServices
  }
}

/** The auth service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function authApp(app: FastifyInstance, options: AuthAppOptions) {
  const { config } = options
  const keys = await loadSigningKeys(config)
  // The auth service verifies its own tokens with its own keys, not over HTTP.
  const verifyToken =
    options.verifyToken ??
    createTokenVerifier({
      keys: createLocalJWKSet(keys.jwks),
      issuer: config.AUTH_ISSUER,
      audience: config.AUTH_AUDIENCE,
    })
  // Its own revocation list is read from its own schema on every write: no window here.
  // (app.db is there by the first request.)
  const revocationCheck: RevocationCheck = (_token, user) => isRevoked(app.db, user)
  await app.register(basePlugin, {
    config,
    verifyToken: withRevocationCheck(verifyToken, revocationCheck),
  })
  await app.register(cookie)
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'auth',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  tokenStatusRoute(app, verifyToken, revocationCheck)
  const services: AuthServices = {
    config,
    db: app.db,
    keys,
    sms: options.sms ?? createSmsSender(config, (line) => app.log.info(line)),
    botCheck: options.botCheck ?? createBotCheck(config.BOT_CHECK, config.BOT_CHECK_SECRET),
    session: {
      db: app.db,
      keys,
      accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
      // Whenever the site is https, on this machine too; production is always (loadAuthConfig).
      secureCookie: new URL(config.PUBLIC_URL).protocol === 'https:',
    },
    policy: {
      ttlSeconds: config.PHONE_CODE_TTL_SECONDS,
      maxAttempts: config.PHONE_MAX_ATTEMPTS,
      resendCooldownSeconds: config.PHONE_RESEND_COOLDOWN_SECONDS,
      sendsPerNumberPerHour: config.PHONE_SENDS_PER_NUMBER_PER_HOUR,
      sendsPerIpPerHour: config.PHONE_SENDS_PER_IP_PER_HOUR,
    },
    revocations: revocationCheck,
  }
  app.decorate('auth', services)
  await app.register(contractRoutesPlugin, {
    tag: 'auth',
    handlers: {
      ...phoneRoutes(services),
      ...sessionRoutes(services),
      ...oidcRoutes(services),
      ...accountRoutes(services),
    },
    // Signing out, or deleting an account, a second time changes nothing.
    revokedMayCall: ['signOut', 'deleteAccount'],
  })
}

export default fp(authApp, { name: 'auth-app' })
