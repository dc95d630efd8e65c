import { z } from 'zod'
import { baseConfigShape, loadConfig, env } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('media', 8083),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: env.bool.optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
}

export type MediaConfig = ReturnType<typeof loadMediaConfig>

export const loadMediaConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
