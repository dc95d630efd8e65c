import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { DescriptorsConfig } from './config.ts'
import { adminHandlers } from './admin-routes.ts'
import { createForwarder } from './analytics.ts'
import { descriptorHandlers } from './routes.ts'
import { seedVocabulary } from './seed.ts'
import { SharedVocabulary } from './shared-cache.ts'
import { loadVocabulary } from './vocabulary.ts'

export interface DescriptorsAppOptions {
  config: DescriptorsConfig
  verifyToken?: TokenVerifier
}

declare module 'fastify' {
  interface FastifyInstance {
    vocabulary: SharedVocabulary
  }
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
  // The shipped vocabulary is loaded at start when its files changed since the last seed.
  const report = await seedVocabulary(app.db, loadVocabulary())
  if (!report.skipped) app.log.info(report, 'vocabulary seeded')
  const shared = new SharedVocabulary(app.db)
  app.decorate('vocabulary', shared)
  await app.register(contractRoutesPlugin, {
    tag: 'descriptors',
    handlers: {
      ...descriptorHandlers(app.db, shared),
      ...adminHandlers({
        db: app.db,
        shared,
        verifyToken: app.verifyToken,
        log: app.log,
        loadVocabulary,
        eventsPerMinute: config.EVENTS_PER_MINUTE,
        forwarder: createForwarder(config),
      }),
    },
  })
}

export default fp(descriptorsApp, { name: 'descriptors-app' })
