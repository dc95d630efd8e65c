import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'

export type AppSettings = components['schemas']['AppSettings']

interface SettingsRow {
  default_language: AppSettings['defaultLanguage']
  default_stage: AppSettings['defaultStage']
  tachistoscope_access: AppSettings['tachistoscopeAccess']
}

const toSettings = (row: SettingsRow | undefined): AppSettings => ({
  defaultLanguage: row?.default_language ?? 'en',
  defaultStage: row?.default_stage ?? 'Stage 1-2',
  tachistoscopeAccess: row?.tachistoscope_access ?? 'admin',
})

export async function readSettings(db: Database): Promise<AppSettings> {
  const [row] = await rows<SettingsRow>(
    db,
    sql`SELECT default_language, default_stage, tachistoscope_access FROM descriptors.settings WHERE id = 1`,
  )
  return toSettings(row)
}

export async function writeSettings(
  db: Database,
  settings: AppSettings,
  userId: string,
): Promise<AppSettings> {
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
  return toSettings(row)
}
