// Every statement of the settings area: the one row of descriptors.settings.
import { eq, sql } from 'drizzle-orm'
import type { components } from '@crv/contracts'
import { settings } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

type AppSettings = components['schemas']['AppSettings']

export interface SettingsRow {
  default_language: AppSettings['defaultLanguage']
  default_stage: AppSettings['defaultStage']
  tachistoscope_access: AppSettings['tachistoscopeAccess']
}

const settingsRowOf = {
  default_language: settings.defaultLanguage,
  default_stage: settings.defaultStage,
  tachistoscope_access: settings.tachistoscopeAccess,
}

export async function settingsRow(db: Queryable): Promise<SettingsRow | undefined> {
  const [row] = await db.select(settingsRowOf).from(settings).where(eq(settings.id, 1))
  return row
}

export async function saveSettings(
  db: Queryable,
  values: AppSettings,
  userId: string,
): Promise<SettingsRow | undefined> {
  const set = {
    defaultLanguage: values.defaultLanguage,
    defaultStage: values.defaultStage,
    tachistoscopeAccess: values.tachistoscopeAccess,
    updatedBy: userId,
    updatedAt: sql`now()`,
  }
  const [row] = await db
    .insert(settings)
    .values({ id: 1, ...set })
    .onConflictDoUpdate({ target: settings.id, set })
    .returning(settingsRowOf)
  return row
}
