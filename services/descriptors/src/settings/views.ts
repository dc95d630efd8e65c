import type { components } from '@crv/contracts'
import type { SettingsRow } from './repository.ts'

export type AppSettings = components['schemas']['AppSettings']

/** The stored row, or the defaults when nothing was saved yet. */
export const toSettings = (row: SettingsRow | undefined): AppSettings => ({
  defaultLanguage: row?.default_language ?? 'en',
  defaultStage: row?.default_stage ?? 'Stage 1-2',
  tachistoscopeAccess: row?.tachistoscope_access ?? 'admin',
})
