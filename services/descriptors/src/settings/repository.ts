// Every statement of the settings area: the one row of descriptors.settings.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'
import type { components } from '@crv/contracts'

type AppSettings = components['schemas']['AppSettings']

export interface SettingsRow {
  default_language: AppSettings['defaultLanguage']
  default_stage: AppSettings['defaultStage']
  tachistoscope_access: AppSettings['tachistoscopeAccess']
}

export async function settingsRow(db: Executor): Promise<SettingsRow | undefined> {
  const [row] = await rows<SettingsRow>(
    db,
    sql`SELECT default_language, default_stage, tachistoscope_access FROM descriptors.settings WHERE id = 1`,
  )
  return row
}

export async function saveSettings(
  db: Executor,
  settings: AppSettings,
  userId: string,
): Promise<SettingsRow | undefined> {
  const [row] = await rows<SettingsRow>(
    db,
    sql`
    INSERT INTO descriptors.settings (id, default_language, default_stage, tachistoscope_access, updated_by, updated_at)
    VALUES (1, ${settings.defaultLanguage}, ${settings.defaultStage}, ${settings.tachistoscopeAccess}, ${userId}, now())
    ON CONFLICT (id) DO UPDATE SET default_language = EXCLUDED.default_language,
      default_stage = EXCLUDED.default_stage, tachistoscope_access = EXCLUDED.tachistoscope_access,
      updated_by = EXCLUDED.updated_by, updated_at = now()
    RETURNING default_language, default_stage, tachistoscope_access`,
  )
  return row
}
