import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { TokenVerifier } from '@crv/kit'
import { createStorage } from '@crv/kit/storage'
import type { MediaConfig } from './config.ts'
import { customWordHandlers } from './custom-words.ts'
import type { MediaDeps } from './deps.ts'
import { imageHandlers } from './images.ts'

export interface MediaAppOptions {
  config: MediaConfig
  verifyToken?: TokenVerifier
}

/** The media service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function mediaApp(app: FastifyInstance, { config, verifyToken }: MediaAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'media',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  const deps: MediaDeps = { config, db: app.db, storage: createStorage(config), log: app.log }
  await app.register(contractRoutesPlugin, {
    tag: 'media',
    handlers: { ...imageHandlers(deps), ...customWordHandlers(deps) },
  })
}

export default fp(mediaApp, { name: 'media-app' })
