import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { baseConfigShape, loadConfig, storageConfigShape } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('practice', 8086),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  ...storageConfigShape,
  /** The astro service: the local sidereal time recorded with each session. */
  ASTRO_URL: z.url().default('http://127.0.0.1:8085'),
  /** The descriptor vocabulary's files (concept ids in seven languages), read once at start. */
  VOCABULARY_DIR: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL('../../descriptors/data', import.meta.url))),
  /** The starter pool shipped with the app, seeded at start when it changed. */
  STARTER_POOL_DIR: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL('../starter-pool', import.meta.url))),
  /**
   * Key sealing visitors' trial sessions (32 bytes, base64). Set it when several replicas run;
   * otherwise one is generated into DATA_DIR/practice/.
   */
  PRACTICE_TRIAL_KEY: z.string().min(40).max(100).optional(),
  /** Visitors' trial sessions started per client IP per hour. */
  PRACTICE_TRIALS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * Hours after its start that a session still open, or locked and unjudged, is closed as
   * abandoned (it then counts at the chance rank and the viewer may start another).
   */
  PRACTICE_ABANDON_AFTER_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 365)
    .default(24),
  /** Image uploads: bytes and pixels, as the media service's. */
  PRACTICE_IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(25 * 1024 * 1024)
    .default(15 * 1024 * 1024),
  PRACTICE_IMAGE_MAX_PIXELS: z.coerce.number().int().min(1).max(268_402_689).default(50_000_000),
}

export type PracticeConfig = ReturnType<typeof loadPracticeConfig>

export const loadPracticeConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
