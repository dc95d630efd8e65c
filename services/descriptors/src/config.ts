import { z } from 'zod'
import { baseConfigShape, loadConfig } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('descriptors', 8082),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * `local` keeps each signed-in caller's own words and hides in this process, forgotten on
   * every write this process makes. Only where one replica serves every descriptors route: the
   * launcher sets it for the embedded stack; with replicas, leave it `off`.
   */
  USER_STATE_CACHE: z.enum(['off', 'local']).default('off'),
  /** Forward recorded analytics events to a Plausible or Umami server as well. */
  ANALYTICS_PROVIDER: z.enum(['none', 'plausible', 'umami']).default('none'),
  /** Base URL of that server, e.g. https://plausible.io. */
  ANALYTICS_URL: z.url().optional(),
  /** Plausible: the site's domain; Umami: the website id. */
  ANALYTICS_SITE: z.string().min(1).max(200).optional(),
  /** Events accepted per client IP per minute (POST /api/events), counted one by one. */
  EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** Recorded events older than this are removed (checked hourly). */
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
}

export type DescriptorsConfig = ReturnType<typeof loadDescriptorsConfig>

export const loadDescriptorsConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
