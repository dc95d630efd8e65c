import { z } from 'zod'
import { baseConfigShape, loadConfig } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('descriptors', 8082),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
}

export type DescriptorsConfig = ReturnType<typeof loadDescriptorsConfig>

export const loadDescriptorsConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
