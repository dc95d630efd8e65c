import type { FastifyRequest } from 'fastify'
import { AppError, notFound, unauthorized } from '@crv/kit'
import type { AuthUser, Handlers } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { MediaDeps } from './deps.ts'
import { removeQueuedObject, startDeletionSweeper } from './custom-words/deletions.ts'
import {
  customWordsForExport,
  deleteCustomWord,
  deleteCustomWordsOfUser,
  deleteObjectOfUser,
  findCustomWordByWord,
  insertCustomWord,
  listCustomWords,
  queueObjectDeletions,
} from './custom-words/repository.ts'
import type { CustomWordRow } from './custom-words/repository.ts'
import { sendObject } from './custom-words/serve-object.ts'
import { synthesizeCustomWord } from './custom-words/speech-client.ts'
import {
  CUSTOM_AUDIO_FOLDER,
  downloadUrlOf,
  newCustomAudioKey,
  ownerOfCustomAudio,
  parseDownloadUrl,
} from './custom-words/storage-url.ts'

type CustomWord = components['schemas']['CustomWord']

/** The basic gestalts and Water, whose clips the speech service voices at its start. */
export const GESTALT_IDS = new Set([
  'biological',
  'energy',
  'land',
  'man',
  'motion',
  'natural',
  'space',
  'water',
])
export const gestaltAudioKey = (id: string) => `gestalts/${id}.mp3`

const toCustomWord = (row: CustomWordRow): CustomWord => ({
  id: row.id,
  word: row.word,
  audioUrl: downloadUrlOf(row.objectKey),
  userId: row.userId,
})

function caller(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized()
  return request.user
}

/** Gestalt clips and custom gestalts (issue [5]). */
export function customWordHandlers(deps: MediaDeps): Handlers {
  const { db, storage } = deps
  startDeletionSweeper(deps)

  // Storage is asked right after the commit; if it fails, the sweeper tries again later.
  const removeAfterCommit = async (objectKey: string) => {
    await removeQueuedObject(deps, objectKey).catch((err: unknown) =>
      deps.log.warn({ err, objectKey }, 'object deletion left to the sweeper'),
    )
  }

  return {
    getGestaltAudio: async (request, reply) => {
      const { gestaltId } = request.params as { gestaltId: string }
      if (!GESTALT_IDS.has(gestaltId)) throw notFound(`No gestalt called '${gestaltId}'`)
      // Clips are revoiced only when the speech engine changes: a day fresh, then revalidated.
      return sendObject(storage, request, reply, gestaltAudioKey(gestaltId), {
        cacheControl: 'public, max-age=86400, stale-while-revalidate=604800',
        missing: `The clip of '${gestaltId}' is not available yet. Please try again shortly.`,
      })
    },

    getStorageObject: async (request, reply) => {
      const { objectPath } = request.params as { objectPath: string }
      if (ownerOfCustomAudio(objectPath) === null) throw notFound('Object not found')
      // A clip never changes under its name (a new clip gets a new name).
      return sendObject(storage, request, reply, objectPath, {
        cacheControl: 'private, max-age=31536000, immutable',
        missing: `Object '${objectPath}' does not exist.`,
      })
    },

    generateCustomWordAudio: async (request, reply) => {
      const user = caller(request)
      const body = request.body as components['schemas']['GenerateAudioRequest']
      const word = body.word.trim().replace(/\s+/g, ' ')
      if (!word) throw new AppError('word_required', 400, 'Please enter a word or phrase')
      const existing = await findCustomWordByWord(db, user.id, word)
      if (existing) return reply.code(200).send(toCustomWord(existing))

      let clip: Buffer
      try {
        clip = await synthesizeCustomWord(deps.config.AI_URL, {
          word,
          authorization: request.headers.authorization,
          forwardedFor: request.ip,
        })
      } catch (err) {
        const retryAfter = (err as AppError).details as { retryAfter?: number } | undefined
        if (retryAfter?.retryAfter) reply.header('retry-after', retryAfter.retryAfter)
        throw err
      }
      const objectKey = newCustomAudioKey(user.id)
      await storage.put(objectKey, clip, { contentType: 'audio/mpeg' })
      let created: CustomWordRow | null
      try {
        created = await insertCustomWord(db, { userId: user.id, word, objectKey })
      } catch (err) {
        await queueObjectDeletions(db, [objectKey]).catch(() => {})
        await removeAfterCommit(objectKey)
        throw err
      }
      if (!created) {
        // The same word was added meanwhile (a double click): keep that one.
        await queueObjectDeletions(db, [objectKey])
        await removeAfterCommit(objectKey)
        const winner = await findCustomWordByWord(db, user.id, word)
        if (!winner) throw new AppError('conflict', 409, 'Please try again')
        return reply.code(200).send(toCustomWord(winner))
      }
      return reply.code(201).send(toCustomWord(created))
    },

    listCustomWords: async (request) => {
      const user = caller(request)
      return (await listCustomWords(db, user.id)).map(toCustomWord)
    },

    exportMediaAccountData: async (request) => {
      const user = caller(request)
      const words = await customWordsForExport(db, user.id)
      return {
        customGestalts: words.map((w) => ({
          id: w.id,
          word: w.word,
          audioUrl: downloadUrlOf(w.objectKey),
          createdAt: w.createdAt,
        })),
      }
    },

    // The media part of deleting an account: the words go in one transaction, their clips
    // right after (or by the sweeper, which retries until storage confirms).
    deleteMediaAccountData: async (request, reply) => {
      const user = caller(request)
      const gone = await deleteCustomWordsOfUser(db, user.id)
      await Promise.all(gone.map((row) => removeAfterCommit(row.objectKey)))
      return reply.code(204).send()
    },

    deleteCustomWord: async (request, reply) => {
      const user = caller(request)
      const id = Number((request.params as { id: number | string }).id)
      // Someone else's word is 'not found' to the caller, as with descriptors.
      const gone = await deleteCustomWord(db, user.id, id)
      if (!gone) throw notFound('Custom gestalt not found')
      await removeAfterCommit(gone.objectKey)
      return reply.code(204).send()
    },

    deleteStorageFile: async (request, reply) => {
      const user = caller(request)
      const { fileUrl } = request.body as components['schemas']['DeleteStorageFileRequest']
      const { objectPath, fileName } = parseDownloadUrl(fileUrl)
      // Only the caller's folder is ever looked at: another user's path is 'not found' here,
      // and the spec's retry with the rebuilt path then looks in the caller's own folder.
      const own = ownerOfCustomAudio(objectPath) === user.id
      const rebuilt = `${CUSTOM_AUDIO_FOLDER}/${user.id}/${fileName}`
      let objectKey: string | null = null
      if (own && (await storage.head(objectPath))) objectKey = objectPath
      else if (ownerOfCustomAudio(rebuilt) === user.id && (await storage.head(rebuilt)))
        objectKey = rebuilt
      if (!objectKey) {
        throw new AppError('object_not_found', 404, `Object '${rebuilt}' does not exist.`)
      }
      await deleteObjectOfUser(db, user.id, objectKey)
      await removeAfterCommit(objectKey)
      return reply.code(204).send()
    },
  }
}
