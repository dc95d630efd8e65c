import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { MediaDeps } from '../deps.ts'
import { storageUsage } from './storage-usage.ts'

/** Object storage usage for the admin panel (issue [8]). */
export function storageUsageRoutes(deps: MediaDeps): Handlers {
  return defineHandlers('media', {
    getStorageUsage: () => storageUsage(deps),
  })
}
