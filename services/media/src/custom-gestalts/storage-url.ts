import { randomBytes } from 'node:crypto'
import { AppError } from '@crv/kit'

/** The upload folder of custom gestalt clips (spec §9). */
export const CUSTOM_AUDIO_FOLDER = 'custom_audio'

/** Where the clip of a new custom word goes: a random, unguessable name in the user's folder. */
export function newCustomAudioKey(userId: string): string {
  return `${CUSTOM_AUDIO_FOLDER}/${userId}/${randomBytes(16).toString('hex')}.mp3`
}

/**
 * The clip's download URL, shaped like a cloud storage one: the encoded object path after an
 * `/o/` segment, then a query marker (spec §5). A path on this origin, so the browser loads it.
 */
export function downloadUrlOf(objectKey: string): string {
  return `/api/storage/o/${encodeURIComponent(objectKey)}?alt=media`
}

/** `custom_audio/{userId}/{fileName}` with nothing else in between. */
export function ownerOfCustomAudio(objectKey: string): string | null {
  const parts = objectKey.split('/')
  return parts.length === 3 && parts[0] === CUSTOM_AUDIO_FOLDER && parts[2]
    ? (parts[1] ?? null)
    : null
}

const invalidUrl = () => new AppError('invalid_storage_url', 400, 'Invalid storage URL format')

/**
 * Spec §5: a download URL names its object by the encoded path between `/o/` and the query
 * marker. Returns the decoded path and the file name taken from the encoded URL, which the
 * delete call falls back to in the caller's own folder.
 */
export function parseDownloadUrl(fileUrl: string): { objectPath: string; fileName: string } {
  // Found with indexOf, not a pattern: `/\/o\/([^?#]+)\?/` backtracks on a long run of `/o/`.
  const start = fileUrl.indexOf('/o/')
  const end = start < 0 ? -1 : fileUrl.indexOf('?', start + 3)
  const encoded = end < 0 ? '' : fileUrl.slice(start + 3, end)
  if (!encoded || encoded.includes('#')) throw invalidUrl()
  try {
    const objectPath = decodeURIComponent(encoded)
    const fileName = decodeURIComponent(encoded.split(/%2F/i).pop() ?? '')
      .split('/')
      .pop()
    if (!objectPath || !fileName) throw invalidUrl()
    return { objectPath, fileName }
  } catch {
    throw invalidUrl()
  }
}
