import { AppError, notFound } from '@crv/kit'
import type { MediaDeps } from '../deps.ts'
import { removeQueuedObject } from './deletions.ts'
import {
  customGestaltsForExport,
  deleteCustomGestalt,
  deleteCustomGestaltsOfUser,
  deleteObjectOfUser,
  findCustomGestaltByWord,
  insertCustomGestalt,
  listCustomGestalts,
  queueObjectDeletions,
} from './repository.ts'
import type { CustomGestaltRow } from './repository.ts'
import { synthesizeCustomWord } from './speech-client.ts'
import type { SpeechRequest } from './speech-client.ts'
import {
  CUSTOM_AUDIO_FOLDER,
  newCustomAudioKey,
  ownerOfCustomAudio,
  parseDownloadUrl,
} from './storage-url.ts'

/** A user's own gestalts, each a word or phrase with its clip (issue [5]). */

type Deps = Pick<MediaDeps, 'config' | 'db' | 'storage' | 'log'>

/** Storage is asked right after the commit; if it fails, the sweeper tries again later. */
async function removeAfterCommit(deps: Deps, objectKey: string) {
  await removeQueuedObject(deps, objectKey).catch((err: unknown) =>
    deps.log.warn({ err, objectKey }, 'object deletion left to the sweeper'),
  )
}

/**
 * The user's custom gestalt for this word (spaces tidied): the one they have (`created`
 * false), or a new one voiced by the speech service. Two requests for one word keep one.
 */
export async function createCustomGestalt(
  deps: Deps,
  userId: string,
  typed: string,
  speech: Omit<SpeechRequest, 'word'>,
): Promise<{ gestalt: CustomGestaltRow; created: boolean }> {
  const { db, storage } = deps
  const word = typed.trim().replace(/\s+/g, ' ')
  if (!word) throw new AppError('word_required', 400, 'Please enter a word or phrase')
  const existing = await findCustomGestaltByWord(db, userId, word)
  if (existing) return { gestalt: existing, created: false }

  const clip = await synthesizeCustomWord(deps.config.AI_URL, { word, ...speech })
  const objectKey = newCustomAudioKey(userId)
  await storage.put(objectKey, clip, { contentType: 'audio/mpeg' })
  let created: CustomGestaltRow | null
  try {
    created = await insertCustomGestalt(db, { userId, word, objectKey })
  } catch (err) {
    await queueObjectDeletions(db, [objectKey]).catch(() => {})
    await removeAfterCommit(deps, objectKey)
    throw err
  }
  if (created) return { gestalt: created, created: true }
  // The same word was added meanwhile (a double click): keep that one.
  await queueObjectDeletions(db, [objectKey])
  await removeAfterCommit(deps, objectKey)
  const winner = await findCustomGestaltByWord(db, userId, word)
  if (!winner) throw new AppError('conflict', 409, 'Please try again')
  return { gestalt: winner, created: false }
}

export const customGestaltsOf = (deps: Deps, userId: string) => listCustomGestalts(deps.db, userId)

/** Deletes one of the user's gestalts; someone else's is 'not found', as with descriptors. */
export async function removeCustomGestalt(deps: Deps, userId: string, id: number): Promise<void> {
  const gone = await deleteCustomGestalt(deps.db, userId, id)
  if (!gone) throw notFound('Custom gestalt not found')
  await removeAfterCommit(deps, gone.objectKey)
}

/**
 * Deletes a clip of the user's by its download URL (and the gestalt recorded with it). Only the
 * caller's folder is ever looked at: another user's path is 'not found' here, and the spec's
 * retry with the rebuilt path then looks in the caller's own folder.
 */
export async function removeStorageFile(deps: Deps, userId: string, fileUrl: string) {
  const { objectPath, fileName } = parseDownloadUrl(fileUrl)
  const own = ownerOfCustomAudio(objectPath) === userId
  const rebuilt = `${CUSTOM_AUDIO_FOLDER}/${userId}/${fileName}`
  let objectKey: string | null = null
  if (own && (await deps.storage.head(objectPath))) objectKey = objectPath
  else if (ownerOfCustomAudio(rebuilt) === userId && (await deps.storage.head(rebuilt)))
    objectKey = rebuilt
  if (!objectKey) {
    throw new AppError('object_not_found', 404, `Object '${rebuilt}' does not exist.`)
  }
  await deleteObjectOfUser(deps.db, userId, objectKey)
  await removeAfterCommit(deps, objectKey)
}

/** The key of a stored custom clip; anything outside the custom clips' folders is not found. */
export function customClipKey(objectPath: string): string {
  if (ownerOfCustomAudio(objectPath) === null) throw notFound('Object not found')
  return objectPath
}

export const customGestaltsForAccountExport = (deps: Deps, userId: string) =>
  customGestaltsForExport(deps.db, userId)

/**
 * The media part of deleting an account: the gestalts go in one transaction, their clips
 * right after (or by the sweeper, which retries until storage confirms).
 */
export async function deleteMediaOfUser(deps: Deps, userId: string): Promise<void> {
  const gone = await deleteCustomGestaltsOfUser(deps.db, userId)
  await Promise.all(gone.map((row) => removeAfterCommit(deps, row.objectKey)))
}
