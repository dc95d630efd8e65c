import { z } from 'zod'
import { baseConfigShape, loadConfig } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('auth', 8081),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
}

export type AuthConfig = ReturnType<typeof loadAuthConfig>

export const loadAuthConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
