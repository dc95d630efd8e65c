import { z } from 'zod'
import { baseConfigShape, loadConfig, env } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('ai', 8084),
  REDIS_URL: z.url().optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: env.bool.optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
}

export type AiConfig = ReturnType<typeof loadAiConfig>

export const loadAiConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
