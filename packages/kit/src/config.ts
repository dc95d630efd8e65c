import { z } from 'zod'

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

export const env = {
  bool,
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: () => z.url(),
  optionalUrl: () => z.url().optional(),
  list: () =>
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
}

/** What every process reads. Defaults work on one machine with nothing installed. */
export const baseConfigShape = (service: string, defaultPort: number) => ({
  SERVICE_NAME: z.string().default(service),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: env.port(defaultPort),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Where the auth service publishes its signing keys; every service verifies tokens itself. */
  AUTH_JWKS_URL: z.url().default('http://127.0.0.1:8081/api/auth/jwks.json'),
  AUTH_ISSUER: z.string().min(1).default('crv-training'),
  AUTH_AUDIENCE: z.string().min(1).default('crv-training'),
  /**
   * How long a "not revoked" answer of the auth service is reused before a write asks again:
   * the longest a sign-out or an account deletion takes to reach the other services.
   */
  AUTH_REVOCATION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  TRUST_PROXY: z.string().default('loopback'),
  /** Check every JSON response against the contract (on in tests; costs time in production). */
  VALIDATE_RESPONSES: bool.optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10000),
})

/**
 * Where a service keeps its objects (createStorage in `@crv/kit/storage`): an S3 bucket (or an
 * S3-compatible store such as MinIO) when S3_BUCKET is set, else files under DATA_DIR/objects.
 */
export const storageConfigShape = {
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
}

/**
 * Validates the environment against a schema and fails fast with a message naming each
 * offending variable.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  source: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const input: Record<string, string> = {}
  for (const key of Object.keys(shape)) {
    const value = source[key]
    if (value !== undefined && value !== '') input[key] = value
  }
  const result = z.object(shape).safeParse(input)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(config)'
      return `  ${name}: ${issue.message}${name in input ? ` (got "${input[name]}")` : ' (not set)'}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  return result.data
}

export type BaseConfig = z.infer<z.ZodObject<ReturnType<typeof baseConfigShape>>>

/**
 * Production needs the site's https origin in PUBLIC_URL: without one the refresh cookie is not
 * Secure (while the gateway sends HSTS) and the gateway answers no public host. Outside
 * production an unset or http one is fine (this machine).
 */
export function assertPublicUrlForProduction(config: {
  NODE_ENV: string
  PUBLIC_URL?: string | undefined
}): void {
  if (config.NODE_ENV !== 'production') return
  const url = config.PUBLIC_URL
  if (url !== undefined && new URL(url).protocol === 'https:') return
  throw new ConfigError(
    `Invalid configuration: PUBLIC_URL must be the site's https:// address in production, e.g. https://crv.example.org (${url === undefined ? 'not set' : `got "${url}"`}): the refresh cookie is Secure only over https`,
  )
}
