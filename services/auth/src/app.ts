import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { TokenVerifier } from '@crv/kit'
import type { AuthConfig } from './config.ts'

export interface AuthAppOptions {
  config: AuthConfig
  verifyToken?: TokenVerifier
}

/** The auth service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function authApp(app: FastifyInstance, { config, verifyToken }: AuthAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'auth',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  await app.register(contractRoutesPlugin, { tag: 'auth', handlers: {} })
}

export default fp(authApp, { name: 'auth-app' })
