import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import { readSettings, updateSettings } from './settings.ts'

export function settingsRoutes(deps: Deps): Handlers {
  return defineHandlers('descriptors', {
    getAppSettings: async ({ reply }) => {
      reply.header('cache-control', 'no-cache')
      return readSettings(deps.db)
    },
    updateAppSettings: async ({ body, user }) => updateSettings(deps, body, user),
  })
}
