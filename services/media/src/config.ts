import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { baseConfigShape, loadConfig, storageConfigShape } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('media', 8083),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  ...storageConfigShape,
  // Tachistoscope uploads: at most the upload operation's body limit (25 MiB).
  TACHISTOSCOPE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(25 * 1024 * 1024)
    .default(20 * 1024 * 1024),
  TACHISTOSCOPE_MAX_PIXELS: z.coerce.number().int().min(1).max(268_402_689).default(50_000_000),
  /**
   * The tachistoscope's starter set (its manifest.json and pictures), stored at start into a
   * library that never had them; `none`: no starter set.
   */
  TACHISTOSCOPE_STARTER_DIR: z
    .string()
    .default(fileURLToPath(new URL('../starter-set', import.meta.url)))
    .transform((dir) => (dir === 'none' ? null : dir)),
  /** The speech service, which voices custom gestalts. */
  AI_URL: z.url().default('http://127.0.0.1:8084'),
  /** The descriptors service, which keeps the app's settings (who may use the tachistoscope). */
  DESCRIPTORS_URL: z.url().default('http://127.0.0.1:8082'),
}

export type MediaConfig = ReturnType<typeof loadMediaConfig>

export const loadMediaConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
