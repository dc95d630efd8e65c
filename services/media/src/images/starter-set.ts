import { readFile } from 'node:fs/promises'
import { createHash, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { MediaDeps } from '../deps.ts'
import { insertStarterImages, starterSetRows } from './repository.ts'
import type { ImageCategory, StoredImage } from './repository.ts'

/** A picture of the starter set, as starter-set/manifest.json lists it. */
export interface StarterPicture {
  slug: string
  category: ImageCategory
  title: string
  file: string
  width: number
  height: number
  bytes: number
  sha256: string
  licence: 'CC0-1.0' | 'public-domain'
  source: string
  attribution: string | null
}

export async function readStarterManifest(dir: string): Promise<StarterPicture[]> {
  const text = await readFile(join(dir, 'manifest.json'), 'utf8')
  return (JSON.parse(text) as { images: StarterPicture[] }).images
}

/** Where a starter picture is stored: one key per picture, whichever replica stores it. */
const objectKeyOf = (picture: StarterPicture) =>
  `tachistoscope/${picture.category}/starter-${picture.slug}.jpg`

const storedImageOf = (picture: StarterPicture): StoredImage & { slug: string } => ({
  slug: picture.slug,
  id: randomUUID(),
  category: picture.category,
  filename: `${picture.slug}.jpg`,
  objectKey: objectKeyOf(picture),
  contentType: 'image/jpeg',
  width: picture.width,
  height: picture.height,
  bytes: picture.bytes,
  etag: `"${picture.sha256.slice(0, 32)}"`,
})

/**
 * Gives the image library the starter set (issue [25]): each picture the library never had is
 * stored, its object first, then its row; one an administrator deleted stays deleted, and their
 * own pictures are not touched. A recorded picture whose object is missing (a new bucket, a
 * data folder restored without its objects) is put back. A picture that cannot be stored now
 * (a file that does not match the manifest, storage refusing it) is left for the next start.
 */
export async function seedStarterSet(
  deps: Pick<MediaDeps, 'db' | 'storage' | 'log'>,
  dir: string | null,
): Promise<{ added: number; restored: number }> {
  if (!dir) return { added: 0, restored: 0 }
  const recorded = new Map((await starterSetRows(deps.db)).map((r) => [r.slug, r.objectKey]))
  const fresh: (StoredImage & { slug: string })[] = []
  let restored = 0
  for (const picture of await readStarterManifest(dir)) {
    const known = recorded.has(picture.slug)
    const objectKey = known ? recorded.get(picture.slug) : objectKeyOf(picture)
    if (!objectKey || (known && (await deps.storage.head(objectKey)))) continue
    try {
      const bytes = await readFile(join(dir, picture.file))
      if (createHash('sha256').update(bytes).digest('hex') !== picture.sha256)
        throw new Error('the file does not match the manifest')
      await deps.storage.put(objectKey, bytes, { contentType: 'image/jpeg' })
    } catch (err) {
      deps.log.error({ err, slug: picture.slug }, 'starter picture not stored; next start retries')
      continue
    }
    if (known) restored += 1
    else fresh.push(storedImageOf(picture))
  }
  const added = fresh.length > 0 ? await insertStarterImages(deps.db, fresh) : []
  return { added: added.length, restored }
}
