// Pools and targets as the contract shows them to administrators.
import type { components } from '@crv/contracts'
import { imageUrlOf } from '../sessions/views.ts'
import type { PoolRow, TargetWithUse } from './repository.ts'

type Schemas = components['schemas']

export const poolView = (r: PoolRow): Schemas['PracticePool'] => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  targets: r.targets,
  activeTargets: r.active,
})

export function targetView(t: TargetWithUse): Schemas['PracticeTarget'] {
  return {
    id: t.id,
    poolId: t.pool_id,
    slug: t.slug,
    title: t.title,
    feedback: t.feedback,
    tags: t.tags,
    licence: t.licence,
    source: t.source,
    attribution: t.attribution,
    frontloading: t.frontloading,
    imageUrl: imageUrlOf(t.image_key),
    imageSha256: t.image_sha256,
    retired: t.retired_at !== null,
    sessions: t.sessions,
    createdAt: t.created_at.toISOString(),
  }
}
