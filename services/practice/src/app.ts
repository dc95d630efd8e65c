import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import { databasePlugin } from '@crv/kit/db'
import { createStorage } from '@crv/kit/storage'
import { adminHandlers } from './admin.ts'
import type { PracticeConfig } from './config.ts'
import { practiceHandlers } from './routes.ts'
import { trialKey } from './sealing.ts'
import { seedStarterPool } from './seed.ts'
import { TrialService } from './trial.ts'
import { loadVocabulary } from './vocabulary.ts'

export interface PracticeAppOptions {
  config: PracticeConfig
  verifyToken?: TokenVerifier
}

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
async function practiceApp(app: FastifyInstance, { config, verifyToken }: PracticeAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(databasePlugin, {
    url: config.DATABASE_URL,
    schema: 'practice',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    max: config.DATABASE_POOL_MAX,
  })
  const storage = createStorage(config)
  const vocabulary = loadVocabulary(config.VOCABULARY_DIR)
  const seeded = await seedStarterPool(app.pg, storage, config.STARTER_POOL_DIR, vocabulary)
  if (!seeded.skipped) app.log.info(seeded, 'starter pool seeded')
  const trials = new TrialService(
    app.pg,
    trialKey(config.PRACTICE_TRIAL_KEY, config.DATA_DIR),
    vocabulary,
    config.PRACTICE_TRIALS_PER_IP_PER_HOUR,
  )
  await app.register(contractRoutesPlugin, {
    tag: 'practice',
    handlers: {
      ...practiceHandlers({
        db: app.pg,
        storage,
        vocabulary,
        trials,
        siderealHours: siderealFrom(config.ASTRO_URL),
      }),
      ...adminHandlers({
        db: app.pg,
        storage,
        vocabulary,
        limits: {
          maxBytes: config.PRACTICE_IMAGE_MAX_BYTES,
          maxPixels: config.PRACTICE_IMAGE_MAX_PIXELS,
        },
      }),
    },
  })
}

export default fp(practiceApp, { name: 'practice-app' })
