import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin, repeatingJob } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import type { DescriptorsConfig } from './config.ts'
import { accountRoutes } from './account/routes.ts'
import { pruneEvents } from './analytics/analytics.ts'
import { createForwarder } from './analytics/forwarder.ts'
import { analyticsRoutes } from './analytics/routes.ts'
import type { Deps } from './deps.ts'
import { historyRoutes } from './history/routes.ts'
import { moderationRoutes } from './moderation/routes.ts'
import { reviewRoutes } from './reviews/routes.ts'
import { settingsRoutes } from './settings/routes.ts'
import { userStateOf } from './vocabulary/repository.ts'
import { vocabularyRoutes } from './vocabulary/routes.ts'
import { seedVocabulary } from './vocabulary/seed.ts'
import { SharedVocabulary } from './vocabulary/shared-cache.ts'
import { loadVocabulary } from './vocabulary/shipped.ts'
import { UserStates } from './vocabulary/user-cache.ts'

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
  const users = new UserStates((userId, language) => userStateOf(app.db, userId, language), {
    enabled: config.USER_STATE_CACHE === 'local',
  })
  // An administrator's change to the shared vocabulary can touch anyone's words.
  shared.onInvalidate(() => users.clear())
  const deps: Deps = {
    db: app.db,
    shared,
    users,
    verifyToken: app.verifyToken,
    log: app.log,
    loadVocabulary,
    eventsPerMinute: config.EVENTS_PER_MINUTE,
    forwarder: createForwarder(config),
  }
  await app.register(contractRoutesPlugin, {
    tag: 'descriptors',
    handlers: {
      ...vocabularyRoutes(deps),
      ...reviewRoutes(deps),
      ...historyRoutes(deps),
      ...accountRoutes(deps),
      ...moderationRoutes(deps),
      ...settingsRoutes(deps),
      ...analyticsRoutes(deps),
    },
  })

  // Anonymous visitors write these rows: they are kept for a bounded time, not for ever.
  await repeatingJob(app, {
    name: 'analytics pruning',
    everyMs: 3600_000,
    runOnReady: true,
    run: async () => {
      const removed = await pruneEvents(app.db, config.ANALYTICS_RETENTION_DAYS)
      if (removed > 0) app.log.info({ removed }, 'old analytics events removed')
    },
  })
}

export default fp(descriptorsApp, { name: 'descriptors-app' })
