import { z } from 'zod'
import {
  assertPublicUrlForProduction,
  baseConfigShape,
  ConfigError,
  env,
  loadConfig,
} from '@crv/kit'

export const configShape = {
  ...baseConfigShape('auth', 8081),
  DATABASE_URL: z.url({
    error: 'set DATABASE_URL to a PostgreSQL URL (npm start provides an embedded one)',
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * The public origin; decides the cookie's Secure flag (https) and the OpenID Connect redirect
   * URI. Production refuses to start without an https one; elsewhere it defaults to this machine.
   */
  PUBLIC_URL: z.url().optional(),
  /** Signing keys: a JSON array of Ed25519 private JWKs with `kid`; the first signs. */
  AUTH_KEYS: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  ADMIN_PHONES: env.list(),
  ADMIN_EMAILS: env.list(),
  SMS_PROVIDER: z.enum(['console', 'twilio', 'sns']).default('console'),
  /** Production refuses the console provider (codes in the log) unless this says otherwise. */
  ALLOW_CONSOLE_SMS: env.bool.default(false),
  /** Outside production the dev SMS outbox answers a request with this key (npm start has one). */
  DEV_OUTBOX_KEY: z.string().min(16).optional(),
  /** `local`: the key, or a direct call from this machine; `key`: the key only. */
  DEV_OUTBOX_ACCESS: z.enum(['local', 'key']).default('local'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  SNS_REGION: z.string().optional(),
  BOT_CHECK: z.enum(['none', 'turnstile', 'recaptcha']).default('none'),
  BOT_CHECK_SECRET: z.string().optional(),
  /** The widget's public site key, sent to the sign-in dialog. */
  BOT_CHECK_SITE_KEY: z.string().optional(),
  PHONE_CODE_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(300),
  PHONE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
  PHONE_RESEND_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  PHONE_SENDS_PER_NUMBER_PER_HOUR: z.coerce.number().int().min(1).max(100).default(5),
  PHONE_SENDS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(20),
  /** The services that keep a user's data: deleting an account deletes it there first. */
  DESCRIPTORS_URL: z.url().default('http://127.0.0.1:8082'),
  MEDIA_URL: z.url().default('http://127.0.0.1:8083'),
  PRACTICE_URL: z.url().default('http://127.0.0.1:8086'),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The name on the social sign-in button; Google's when Google is the provider. */
  OIDC_PROVIDER_NAME: z.string().min(1).max(60).optional(),
}

export type AuthConfig = ReturnType<typeof loadAuthConfig>

export function loadAuthConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(configShape, source)
  const missing = (names: string[]) => names.filter((n) => !config[n as keyof typeof config])
  const require = (what: string, names: string[]) => {
    const gone = missing(names)
    if (gone.length)
      throw new ConfigError(`Invalid configuration: ${what} needs ${gone.join(', ')}`)
  }
  if (config.SMS_PROVIDER === 'twilio')
    require('SMS_PROVIDER=twilio', ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'])
  if (config.DEV_OUTBOX_ACCESS === 'key') require('DEV_OUTBOX_ACCESS=key', ['DEV_OUTBOX_KEY'])
  if (config.BOT_CHECK !== 'none')
    require(`BOT_CHECK=${config.BOT_CHECK}`, ['BOT_CHECK_SECRET', 'BOT_CHECK_SITE_KEY'])
  if (config.OIDC_ISSUER || config.OIDC_CLIENT_ID || config.OIDC_CLIENT_SECRET) {
    require('OpenID Connect sign-in', ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'])
  }
  if (config.NODE_ENV === 'production') assertSafeForProduction(config)
  return { ...config, PUBLIC_URL: config.PUBLIC_URL ?? DEVELOPMENT_PUBLIC_URL }
}

/** The gateway on this machine, as `npm start` runs it. */
const DEVELOPMENT_PUBLIC_URL = 'http://localhost:8080'

/**
 * Production must not run silently unsafe: without an https origin the refresh cookie is not
 * Secure (while the gateway sends HSTS), and the console provider writes sign-in codes to the log.
 */
function assertSafeForProduction(config: {
  NODE_ENV: string
  PUBLIC_URL?: string | undefined
  SMS_PROVIDER: string
  ALLOW_CONSOLE_SMS: boolean
}): void {
  assertPublicUrlForProduction(config)
  if (config.SMS_PROVIDER === 'console' && !config.ALLOW_CONSOLE_SMS) {
    throw new ConfigError(
      'Invalid configuration: SMS_PROVIDER is console in production, which writes sign-in codes to the log; set SMS_PROVIDER=twilio or sns, or ALLOW_CONSOLE_SMS=true for a trial without SMS',
    )
  }
}
