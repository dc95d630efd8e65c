import { createHash, randomUUID } from 'node:crypto'
import { notFound } from '@crv/kit'
import type { AuthUser } from '@crv/kit'
import type { MediaDeps } from '../deps.ts'
import { assertCanUseTachistoscope } from '../tachistoscope-access.ts'
import { removeQueuedObject } from './deletions.ts'
import { EXTENSIONS, prepareImage } from '@crv/kit/images'
import {
  deleteImageQueuingObject,
  findImage,
  insertImage,
  listImages,
  queueDeletion,
} from './repository.ts'
import type { ImageCategory, StoredImage } from './repository.ts'
import type { UploadInput } from './upload-input.ts'

/** Where the browser loads an image from (served by this service, cached for good). */
export const imageUrl = (id: string) => `/api/tachistoscope/files/${id}`

/** A file name for display: the last path segment, without control characters. */
export function displayName(name: string | null, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? ''
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return clean.length > 0 ? [...clean].slice(0, 255).join('').slice(0, 255) : fallback
}

/**
 * Checks and stores an uploaded image: prepared (type, limits, orientation, metadata, fit),
 * written under a key of the server's making, then recorded. A row that cannot be written
 * leaves no object behind.
 */
export async function uploadImage(
  deps: MediaDeps,
  input: UploadInput,
  uploadedBy: string,
): Promise<StoredImage> {
  const prepared = await prepareImage(input.bytes, {
    fit: input.fit,
    declaredType: input.declaredType,
    limits: {
      maxBytes: deps.config.TACHISTOSCOPE_MAX_BYTES,
      maxPixels: deps.config.TACHISTOSCOPE_MAX_PIXELS,
    },
  })
  const id = randomUUID()
  const ext = EXTENSIONS[prepared.format]
  const image: StoredImage = {
    id,
    category: input.category,
    filename: displayName(input.filename, `image.${ext}`),
    objectKey: `tachistoscope/${input.category}/${id}.${ext}`,
    contentType: prepared.contentType,
    width: prepared.width,
    height: prepared.height,
    bytes: prepared.bytes.length,
    etag: `"${createHash('sha256').update(prepared.bytes).digest('hex').slice(0, 32)}"`,
  }
  await deps.storage.put(image.objectKey, prepared.bytes, { contentType: image.contentType })
  try {
    await insertImage(deps.db, { ...image, uploadedBy })
  } catch (err) {
    await deps.storage.delete(image.objectKey).catch(async () => {
      deps.log.error({ objectKey: image.objectKey }, 'upload not recorded; object queued')
      await queueDeletion(deps.db, image.objectKey).catch(() => {
        deps.log.error({ objectKey: image.objectKey }, 'orphaned image object')
      })
    })
    throw err
  }
  return image
}

/**
 * Deletes an image: its row first (with the object queued in the same transaction), then the
 * object, retried until storage confirms. False when there is no such image.
 */
export async function deleteImage(deps: MediaDeps, id: string): Promise<boolean> {
  const deleted = await deleteImageQueuingObject(deps.db, id)
  if (!deleted) return false
  await removeQueuedObject(deps, deleted.objectKey)
  return true
}

/** The images of a category, to a caller the tachistoscope setting lets in. */
export async function imagesFor(
  deps: MediaDeps,
  user: AuthUser,
  category: ImageCategory,
): Promise<StoredImage[]> {
  await assertCanUseTachistoscope(user, deps)
  return listImages(deps.db, category)
}

/** A stored image's record, or not found. */
export async function imageRecord(deps: MediaDeps, id: string): Promise<StoredImage> {
  const image = await findImage(deps.db, id)
  if (!image) throw notFound('Image not found')
  return image
}

/** Deletes an image (its object follows), or not found. */
export async function removeImage(deps: MediaDeps, id: string): Promise<void> {
  if (!(await deleteImage(deps, id))) throw notFound('Image not found')
}
