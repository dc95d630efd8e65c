import { AppError, unauthorized } from '@crv/kit'
import type { AuthUser } from '@crv/kit'
import type { MediaDeps } from './deps.ts'

/** How long the settings read from the descriptors service are trusted. */
const SETTINGS_TTL_MS = 10_000
let rule: { url: string; at: number; value: Promise<'admin' | 'user'> } | null = null

/**
 * The administrators' setting (admin panel → Settings), read from the descriptors service's
 * public `GET /api/settings` and kept 10 s. When it cannot be read: administrators only, the
 * spec's rule (docs/decisions.md, issue [8]).
 */
function tachistoscopeRule(descriptorsUrl: string): Promise<'admin' | 'user'> {
  if (rule && rule.url === descriptorsUrl && Date.now() - rule.at < SETTINGS_TTL_MS)
    return rule.value
  const value = fetch(`${descriptorsUrl}/api/settings`, { signal: AbortSignal.timeout(2_000) })
    .then(async (response) => {
      if (!response.ok) throw new Error(`settings answered ${response.status}`)
      const body = (await response.json()) as { tachistoscopeAccess?: unknown }
      return body.tachistoscopeAccess === 'user' ? ('user' as const) : ('admin' as const)
    })
    .catch(() => {
      rule = null
      return 'admin' as const
    })
  rule = { url: descriptorsUrl, at: Date.now(), value }
  return value
}

/**
 * Who may use the tachistoscope (see its images). The one place this is decided: administrators
 * always; every signed-in user when the administrators' setting says so.
 */
export async function canUseTachistoscope(
  user: AuthUser | null,
  deps: Pick<MediaDeps, 'config'>,
): Promise<boolean> {
  if (!user) return false
  if (user.role === 'admin') return true
  return (await tachistoscopeRule(deps.config.DESCRIPTORS_URL)) === 'user'
}

/** 401 for visitors, 403 ('Access Restricted') for signed-in users the setting leaves out. */
export async function assertCanUseTachistoscope(
  user: AuthUser | null,
  deps: Pick<MediaDeps, 'config'>,
): Promise<void> {
  if (!user) throw unauthorized()
  if (!(await canUseTachistoscope(user, deps))) {
    throw new AppError(
      'access_restricted',
      403,
      'Access Restricted: this feature is currently available to administrators only.',
    )
  }
}
