import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin, repeatingJob } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import { createStorage } from '@crv/kit/storage'
import type { CandidateDraw } from './sessions/candidate-sets.ts'
import type { PracticeConfig } from './config.ts'
import { contributionHandlers } from './contributions/routes.ts'
import { perceptualHashBackfill } from './near-duplicates/backfill.ts'
import { viewerKeyOf } from './pool-health/pool-health.ts'
import { poolHealthHandlers } from './pool-health/routes.ts'
import { poolHandlers } from './pools/routes.ts'
import { closeAbandoned } from './sessions/repository.ts'
import { trialKey } from './sessions/sealing.ts'
import { seedStarterPool } from './seed.ts'
import { sessionHandlers } from './sessions/routes.ts'
import { abandonedPicturesSweeper } from './target-import/add-targets.ts'
import { targetImportHandlers } from './target-import/routes.ts'
import { trialHandlers } from './trials/routes.ts'
import { TrialService } from './trials/trials.ts'
import { loadVocabulary } from './vocabulary.ts'

export interface PracticeAppOptions {
  config: PracticeConfig
  verifyToken?: TokenVerifier
  /** Tests only: plant another candidate draw (the fair one is the default). */
  draw?: CandidateDraw
}

/** How often every viewer's sessions past the limit are closed as abandoned. */
const SWEEP_EVERY_MS = 10 * 60_000

/**
 * Closes abandoned sessions of everyone now and then (each viewer's own are closed on their
 * next call anyway), so that no session stays open for ever.
 */
const abandonedSessionsSweeper = fp(
  async (app: FastifyInstance, { hours }: { hours: number }) => {
    await repeatingJob(app, {
      name: 'abandoned sessions',
      everyMs: SWEEP_EVERY_MS,
      runOnReady: true,
      run: async () => {
        const closed = await closeAbandoned(app.db, hours, null)
        if (closed > 0) app.log.info({ closed }, 'practice sessions closed as abandoned')
      },
    })
  },
  { name: 'practice-abandoned-sweeper' },
)

/** Local sidereal time in hours from the astro service, or null when it cannot answer. */
export function siderealFrom(astroUrl: string) {
  return async (latitude: number, longitude: number): Promise<number | null> => {
    const url = new URL('/api/sidereal-time/auto', astroUrl)
    url.searchParams.set('lat', String(latitude))
    url.searchParams.set('lng', String(longitude))
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (!res.ok) return null
      const body = (await res.json()) as { lst_degrees?: unknown }
      return typeof body.lst_degrees === 'number' ? body.lst_degrees / 15 : null
    } catch {
      return null
    }
  }
}

/** The practice service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function practiceApp(
  app: FastifyInstance,
  { config, verifyToken, draw }: PracticeAppOptions,
) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'practice',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  const storage = createStorage(config)
  const vocabulary = loadVocabulary(config.VOCABULARY_DIR)
  const seeded = await seedStarterPool(app.db, storage, config.STARTER_POOL_DIR, vocabulary)
  if (!seeded.skipped) app.log.info(seeded, 'starter pool seeded')
  const sealingKey = trialKey(config.PRACTICE_TRIAL_KEY, config.DATA_DIR)
  const trials = new TrialService(
    app.db,
    sealingKey,
    vocabulary,
    config.PRACTICE_TRIALS_PER_IP_PER_HOUR,
    draw,
  )
  await app.register(abandonedSessionsSweeper, { hours: config.PRACTICE_ABANDON_AFTER_HOURS })
  await app.register(perceptualHashBackfill, { storage })
  await app.register(abandonedPicturesSweeper, { storage })
  const limits = {
    maxBytes: config.PRACTICE_IMAGE_MAX_BYTES,
    maxPixels: config.PRACTICE_IMAGE_MAX_PIXELS,
  }
  await app.register(contractRoutesPlugin, {
    tag: 'practice',
    handlers: {
      ...sessionHandlers({
        db: app.db,
        storage,
        vocabulary,
        siderealHours: siderealFrom(config.ASTRO_URL),
        abandonAfterHours: config.PRACTICE_ABANDON_AFTER_HOURS,
        draw,
      }),
      ...trialHandlers(trials),
      ...poolHandlers({ db: app.db, storage, vocabulary, limits }),
      ...targetImportHandlers({ db: app.db, storage, vocabulary, limits }),
      ...contributionHandlers({ db: app.db, storage, vocabulary, limits }),
      ...poolHealthHandlers({ db: app.db, viewerKey: viewerKeyOf(sealingKey) }),
    },
  })
}

export default fp(practiceApp, { name: 'practice-app' })
