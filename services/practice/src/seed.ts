// The starter pool shipped with the app (starter-pool/manifest.json and its images), loaded at
// start: new targets are added by slug, existing ones keep their ids and image keys (sessions
// point at them), so seeding twice changes nothing.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from '@crv/kit/db'
import type { ObjectStorage } from '@crv/kit/storage'
import {
  ensurePool,
  imageKeysBySlug,
  insertStarterTarget,
  poolBySlug,
  saveSeededHash,
  seededHash,
} from './pools/repository.ts'
import { sha256Hex } from './sessions/sealing.ts'
import type { Vocabulary } from './vocabulary.ts'

export interface StarterTarget {
  slug: string
  title: string
  file: string
  feedback: string
  tags: string[]
  licence: 'CC0-1.0' | 'public-domain' | 'CC-BY-4.0' | 'own'
  source: string
  attribution: string | null
  frontloading: string | null
}

export interface StarterManifest {
  pool: { slug: string; name: string }
  targets: StarterTarget[]
}

export const STARTER_POOL_SLUG = 'starter'

export const imageObjectKey = (imageKey: string) => `practice/${imageKey}`
export const newImageKey = () => `${randomBytes(16).toString('hex')}.jpg`

export async function seedStarterPool(
  pool: Database,
  storage: ObjectStorage,
  dir: string,
  vocabulary: Vocabulary,
): Promise<{ skipped: boolean; added: number }> {
  const manifestText = readFileSync(join(dir, 'manifest.json'), 'utf8')
  const manifest = JSON.parse(manifestText) as StarterManifest
  const dataHash = sha256Hex(manifestText)
  const known = await imageKeysBySlug(
    pool,
    manifest.targets.map((t) => t.slug),
  )
  const existing = new Map(known.map((r) => [r.slug, r.image_key]))
  // Every image a row names is in storage (a new bucket, or a data directory restored without
  // its objects, gets them back), and new targets' images are stored before their rows.
  const fresh: (StarterTarget & { imageKey: string; imageSha256: string })[] = []
  for (const target of manifest.targets) {
    const key = existing.get(target.slug)
    if (key && (await storage.head(imageObjectKey(key)))) continue
    const bytes = readFileSync(join(dir, target.file))
    if (key) {
      await storage.put(imageObjectKey(key), bytes, { contentType: 'image/jpeg' })
      continue
    }
    const imageKey = newImageKey()
    await storage.put(imageObjectKey(imageKey), bytes, { contentType: 'image/jpeg' })
    fresh.push({ ...target, imageKey, imageSha256: sha256Hex(bytes) })
  }
  if ((await seededHash(pool)) === dataHash && fresh.length === 0)
    return { skipped: true, added: 0 }

  await pool.transaction(async (client) => {
    await ensurePool(client, manifest.pool)
    const poolRow = await poolBySlug(client, manifest.pool.slug)
    if (!poolRow) throw new Error('starter pool missing after insert')
    for (const t of fresh) {
      await insertStarterTarget(client, poolRow.id, {
        ...t,
        tags: t.tags.filter((tag) => vocabulary.has(tag)),
      })
    }
    await saveSeededHash(client, dataHash)
  })
  return { skipped: false, added: fresh.length }
}
