import { defineHandlers, notFound } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { MediaDeps } from '../deps.ts'
import { etagMatches } from '../serve-object.ts'
import { imageRecord, imagesFor, removeImage, uploadImage } from './library.ts'
import { jsonUpload, multipartUpload } from './upload-input.ts'
import { imageUrlsView, imageView, uploadResultView } from './views.ts'

/** A stored image never changes (a new upload gets a new id): browsers keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Tachistoscope image library (issue [6]). */
export function imageRoutes(deps: MediaDeps): Handlers {
  return defineHandlers('media', {
    listTachistoscopeImages: async ({ params, user }) =>
      (await imagesFor(deps, user, params.category)).map(imageView),

    listTachistoscopeImageUrls: async ({ params, user }) =>
      imageUrlsView(await imagesFor(deps, user, params.categoryOrId)),

    uploadTachistoscopeImage: async ({ body, user, request, reply }) => {
      const maxBytes = deps.config.TACHISTOSCOPE_MAX_BYTES
      const input = request.isMultipart()
        ? await multipartUpload(request, maxBytes)
        : jsonUpload(body, maxBytes)
      const image = await uploadImage(deps, input, user.id)
      request.log.info(
        { imageId: image.id, category: image.category, bytes: image.bytes },
        'tachistoscope image stored',
      )
      return reply.code(201).send(uploadResultView(image))
    },

    deleteTachistoscopeImage: async ({ params, reply }) => {
      await removeImage(deps, params.categoryOrId)
      return reply.code(204).send()
    },

    getTachistoscopeImageFile: async ({ params, request, reply }) => {
      const image = await imageRecord(deps, params.id)
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
  })
}
