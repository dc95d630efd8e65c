import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { TokenVerifier } from '@crv/kit'
import type { DescriptorsConfig } from './config.ts'

export interface DescriptorsAppOptions {
  config: DescriptorsConfig
  verifyToken?: TokenVerifier
}

/** The descriptors service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function descriptorsApp(
  app: FastifyInstance,
  { config, verifyToken }: DescriptorsAppOptions,
) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'descriptors',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  await app.register(contractRoutesPlugin, { tag: 'descriptors', handlers: {} })
}

export default fp(descriptorsApp, { name: 'descriptors-app' })
