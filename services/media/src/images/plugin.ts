import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import multipart from '@fastify/multipart'
import type { MediaDeps } from '../deps.ts'
import { startImageDeletionSweeper } from './deletions.ts'
import { seedStarterSet } from './starter-set.ts'

const UPLOAD_OPERATION = 'uploadTachistoscopeImage'

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
      // A starter set that cannot be read or stored now (a broken manifest, storage away) is
      // no reason to refuse uploads and flashes: the service starts, and the next start tries.
      try {
        const seeded = await seedStarterSet(deps, deps.config.TACHISTOSCOPE_STARTER_DIR)
        if (seeded.added + seeded.restored > 0)
          app.log.info(seeded, 'tachistoscope starter set stored')
      } catch (err) {
        app.log.error({ err }, 'tachistoscope starter set not stored; the next start tries again')
      }
      sweeper.sweep()
    })
    app.addHook('onClose', async () => sweeper.stop())
  },
  { name: 'media-images', dependencies: ['crv-base', 'crv-database'] },
)
