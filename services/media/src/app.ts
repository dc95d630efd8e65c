import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { TokenVerifier } from '@crv/kit'
import { createStorage } from '@crv/kit/storage'
import type { ObjectStorage } from '@crv/kit/storage'
import type { MediaConfig } from './config.ts'
import { customGestaltsPlugin } from './custom-gestalts/plugin.ts'
import { customGestaltRoutes } from './custom-gestalts/routes.ts'
import type { MediaDeps } from './deps.ts'
import { gestaltClipRoutes } from './gestalt-clips/routes.ts'
import { imagesPlugin } from './images/plugin.ts'
import { imageRoutes } from './images/routes.ts'
import { storageUsageRoutes } from './storage-usage/routes.ts'

export interface MediaAppOptions {
  config: MediaConfig
  verifyToken?: TokenVerifier
  /** Tests put a storage of their own here (one that fails, say); by default from config. */
  storage?: ObjectStorage
}

/** The media service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function mediaApp(app: FastifyInstance, { config, verifyToken, storage }: MediaAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'media',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  const deps: MediaDeps = {
    config,
    db: app.db,
    storage: storage ?? createStorage(config),
    log: app.log,
  }
  await app.register(imagesPlugin, { deps })
  await app.register(customGestaltsPlugin, { deps })
  await app.register(contractRoutesPlugin, {
    tag: 'media',
    handlers: {
      ...imageRoutes(deps),
      ...gestaltClipRoutes(deps),
      ...customGestaltRoutes(deps),
      ...storageUsageRoutes(deps),
    },
  })
}

export default fp(mediaApp, { name: 'media-app' })
