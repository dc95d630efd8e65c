import type { components } from '@crv/contracts'
import type { MediaDeps } from '../deps.ts'

type StorageUsage = components['schemas']['StorageUsage']

/** The areas of the object store, by the key prefixes the services write. */
const AREAS = ['gestalts/', 'custom_audio/', 'tachistoscope/', 'speech/']

/** Object storage usage, by area, for the admin panel's Database tab (issue [8]). */
export async function storageUsage({ storage }: Pick<MediaDeps, 'storage'>): Promise<StorageUsage> {
  const all = await storage.list('')
  const areas = [...AREAS, ''].map((prefix) => ({
    prefix: prefix || 'other',
    objects: 0,
    bytes: 0,
  }))
  for (const object of all) {
    const i = AREAS.findIndex((p) => object.key.startsWith(p))
    const area = areas[i === -1 ? AREAS.length : i]
    if (!area) continue
    area.objects += 1
    area.bytes += object.size
  }
  return {
    driver: storage.driver,
    objects: all.length,
    bytes: all.reduce((n, o) => n + o.size, 0),
    areas,
    measuredAt: new Date().toISOString(),
  }
}
