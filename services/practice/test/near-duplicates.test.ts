// The near-duplicate threshold, held to the starter pool it was measured on (docs/decisions.md):
// every two different targets stay farther apart than it, and copies of a target (another JPEG
// quality, another size, another format, each then stored as an upload is) stay within it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { prepareImage } from '@crv/kit/images'
import {
  NEAR_DUPLICATE_MAX_DISTANCE,
  hammingDistance,
  perceptualHashOf,
} from '../src/near-duplicates/perceptual-hash.ts'
import type { StarterManifest } from '../src/seed.ts'

const POOL = join(import.meta.dirname, '..', 'starter-pool')
const manifest = JSON.parse(readFileSync(join(POOL, 'manifest.json'), 'utf8')) as StarterManifest
const LIMITS = { maxBytes: 15 * 1024 * 1024, maxPixels: 50_000_000 }

/** As an upload stores a picture: fitted into 800×600 as JPEG. */
const stored = async (bytes: Buffer) =>
  (await prepareImage(bytes, { fit: true, limits: LIMITS })).bytes

describe('the near-duplicate threshold on the starter pool', () => {
  it('keeps every two different targets apart and every copy of a target within it', async () => {
    const pictures = manifest.targets.map((t) => ({
      slug: t.slug,
      bytes: readFileSync(join(POOL, t.file)),
    }))
    const hashes = await Promise.all(pictures.map((p) => perceptualHashOf(p.bytes)))
    expect(hashes.filter((h) => h.flat)).toEqual([])

    let closest = { distance: 64, pair: '' }
    for (let i = 0; i < hashes.length; i++) {
      for (let j = i + 1; j < hashes.length; j++) {
        const distance = hammingDistance(hashes[i]?.bits ?? '', hashes[j]?.bits ?? '')
        if (distance < closest.distance) {
          closest = { distance, pair: `${pictures[i]?.slug} / ${pictures[j]?.slug}` }
        }
      }
    }
    expect(closest.distance, closest.pair).toBeGreaterThan(NEAR_DUPLICATE_MAX_DISTANCE)

    const copies = {
      'JPEG quality 15': (b: Buffer) => sharp(b).jpeg({ quality: 15 }).toBuffer(),
      '400 px wide': (b: Buffer) => sharp(b).resize(400).jpeg({ quality: 85 }).toBuffer(),
      'WebP quality 40': (b: Buffer) => sharp(b).webp({ quality: 40 }).toBuffer(),
    }
    // One kind of copy per target in turn: every kind met on a third of the pool.
    const kinds = Object.entries(copies)
    let farthest = { distance: 0, copy: '' }
    for (const [i, picture] of pictures.entries()) {
      const [name, make] = kinds[i % kinds.length] ?? kinds[0] ?? ['', async (b: Buffer) => b]
      const copy = await perceptualHashOf(await stored(await make(picture.bytes)))
      const distance = hammingDistance(copy.bits, hashes[i]?.bits ?? '')
      if (distance > farthest.distance) farthest = { distance, copy: `${picture.slug}, ${name}` }
    }
    expect(farthest.distance, farthest.copy).toBeLessThanOrEqual(NEAR_DUPLICATE_MAX_DISTANCE)
  }, 120_000)
})
