import type { components } from '@crv/contracts'
import type { AuthConfig } from '../config.ts'
import type { IssuedSession } from './sessions.ts'

type Schemas = components['schemas']

/** The body of a new session (its refresh token goes in the cookie, never here). */
export const sessionView = (session: IssuedSession): Schemas['AuthSession'] => ({
  accessToken: session.accessToken,
  user: session.user,
})

/** What the sign-in page offers: social sign-in when configured, and the bot check. */
export function signInOptionsView(config: AuthConfig): Schemas['SignInOptions'] {
  const social = Boolean(config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET)
  const google =
    !config.OIDC_ISSUER || new URL(config.OIDC_ISSUER).hostname === 'accounts.google.com'
  return {
    socialSignIn: {
      enabled: social,
      providerName: social
        ? (config.OIDC_PROVIDER_NAME ?? (google ? 'Google' : 'your account'))
        : null,
    },
    botCheck: {
      kind: config.BOT_CHECK,
      siteKey: config.BOT_CHECK === 'none' ? null : (config.BOT_CHECK_SITE_KEY ?? null),
    },
  }
}
