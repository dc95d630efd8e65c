// The app's settings: what a new visitor starts with, and who may use the tachistoscope.
import type { AuthUser } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { Deps } from '../deps.ts'
import { logAction } from '../moderation/repository.ts'
import { saveSettings, settingsRow } from './repository.ts'
import { toSettings } from './views.ts'
import type { AppSettings } from './views.ts'

export async function readSettings(db: Database): Promise<AppSettings> {
  return toSettings(await settingsRow(db))
}

/** Saved by an administrator, with a line in the audit log. */
export async function updateSettings(
  { db, log }: Pick<Deps, 'db' | 'log'>,
  settings: AppSettings,
  user: AuthUser,
): Promise<AppSettings> {
  const saved = toSettings(await saveSettings(db, settings, user.id))
  await logAction(
    db,
    'settings',
    user.id,
    `language ${saved.defaultLanguage}, stage ${saved.defaultStage}, tachistoscope for ${saved.tachistoscopeAccess === 'admin' ? 'administrators' : 'signed-in users'}`,
  )
  log.info({ userId: user.id, settings: saved }, 'settings saved')
  return saved
}
