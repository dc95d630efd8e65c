import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import multipart from '@fastify/multipart'
import { notFound } from '@crv/kit'
import type { AuthUser, Handlers } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { MediaDeps } from './deps.ts'
import { startImageDeletionSweeper } from './images/deletions.ts'
import { deleteImage, imageUrl, uploadImage } from './images/library.ts'
import { seedStarterSet } from './images/starter-set.ts'
import { findImage, listImages } from './images/repository.ts'
import type { ImageCategory, StoredImage } from './images/repository.ts'
import { jsonUpload, multipartUpload } from './images/upload-input.ts'
import { assertCanUseTachistoscope } from './tachistoscope-access.ts'

type Schemas = components['schemas']

const UPLOAD_OPERATION = 'uploadTachistoscopeImage'
/** A stored image never changes (a new upload gets a new id): browsers keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

const weak = (tag: string) => tag.trim().replace(/^W\//, '')
const etagMatches = (header: string | undefined, etag: string) =>
  header !== undefined &&
  (header.trim() === '*' || header.split(',').some((tag) => weak(tag) === weak(etag)))

const callerOf = (request: FastifyRequest): AuthUser => {
  // x-access guarantees a verified caller before any handler below that reads it runs.
  if (!request.user) throw new Error('route without a caller')
  return request.user
}

const uploadResult = (image: StoredImage): Schemas['TachistoscopeUploadResult'] => ({
  id: image.id,
  filename: image.filename,
  category: image.category,
  url: imageUrl(image.id),
  width: image.width,
  height: image.height,
  bytes: image.bytes,
})

/** Tachistoscope image library (issue [6]). */
export function imageHandlers(deps: MediaDeps): Handlers {
  const listed = async (request: FastifyRequest, category: ImageCategory) => {
    await assertCanUseTachistoscope(request.user, deps)
    return listImages(deps.db, category)
  }
  return {
    listTachistoscopeImages: async (request) => {
      const { category } = request.params as { category: ImageCategory }
      const images = await listed(request, category)
      return images.map((image): Schemas['TachistoscopeImage'] => ({
        id: image.id,
        filename: image.filename,
        dataUrl: imageUrl(image.id),
      }))
    },

    listTachistoscopeImageUrls: async (request) => {
      const { categoryOrId } = request.params as { categoryOrId: ImageCategory }
      const images = await listed(request, categoryOrId)
      return { urls: images.map((image) => imageUrl(image.id)) }
    },

    uploadTachistoscopeImage: async (request, reply) => {
      const caller = callerOf(request)
      const maxBytes = deps.config.TACHISTOSCOPE_MAX_BYTES
      const input = request.isMultipart()
        ? await multipartUpload(request, maxBytes)
        : jsonUpload(request.body as Schemas['TachistoscopeUploadRequest'] | undefined, maxBytes)
      const image = await uploadImage(deps, input, caller.id)
      request.log.info(
        { imageId: image.id, category: image.category, bytes: image.bytes },
        'tachistoscope image stored',
      )
      return reply.code(201).send(uploadResult(image))
    },

    deleteTachistoscopeImage: async (request, reply) => {
      const { categoryOrId: id } = request.params as { categoryOrId: string }
      if (!(await deleteImage(deps, id))) throw notFound('Image not found')
      return reply.code(204).send()
    },

    getTachistoscopeImageFile: async (request, reply: FastifyReply) => {
      const { id } = request.params as { id: string }
      const image = await findImage(deps.db, id)
      if (!image) throw notFound('Image not found')
      reply.header('etag', image.etag).header('cache-control', IMMUTABLE)
      if (etagMatches(request.headers['if-none-match'], image.etag)) return reply.code(304).send()
      const object = await deps.storage.get(image.objectKey)
      if (!object) throw notFound('Image not found')
      return reply
        .type(image.contentType)
        .header('content-length', image.bytes)
        .header('x-content-type-options', 'nosniff')
        .send(object.body)
    },
  }
}

/**
 * What the image routes need around them: multipart uploads, the upload operation's body
 * validated per content type (JSON by the contract; the form's fields by the handler), and
 * the sweeper that retries queued object deletions. Registered before the contract routes.
 */
export const imagesPlugin = fp<{ deps: MediaDeps }>(
  async (app: FastifyInstance, { deps }) => {
    await app.register(multipart, {
      limits: {
        fileSize: deps.config.TACHISTOSCOPE_MAX_BYTES,
        files: 1,
        fields: 2,
        parts: 3,
        fieldSize: 64,
        headerPairs: 50,
      },
    })
    app.addHook('onRoute', (route) => {
      const body = route.schema?.body
      if (route.config?.operationId !== UPLOAD_OPERATION || !body || !route.schema) return
      // Keyed by content type, Fastify validates a JSON body with the contract's schema and
      // leaves the multipart form (parsed as a stream by the handler) to the handler.
      route.schema.body = { content: { 'application/json': { schema: body } } }
    })
    const sweeper = startImageDeletionSweeper(deps)
    app.addHook('onReady', async () => {
      const seeded = await seedStarterSet(deps, deps.config.TACHISTOSCOPE_STARTER_DIR)
      if (seeded.added + seeded.restored > 0)
        app.log.info(seeded, 'tachistoscope starter set stored')
      sweeper.sweep()
    })
    app.addHook('onClose', async () => sweeper.stop())
  },
  { name: 'media-images', dependencies: ['crv-base', 'crv-database'] },
)
