import fp from 'fastify-plugin'
import type { MediaDeps } from '../deps.ts'
import { startDeletionSweeper } from './deletions.ts'

/** The sweeper that retries the custom gestalts' queued clip deletions, for the app's life. */
export const customGestaltsPlugin = fp<{ deps: MediaDeps }>(
  async (app, { deps }) => {
    let sweeper: { stop: () => void } | null = null
    app.addHook('onReady', async () => {
      sweeper = startDeletionSweeper(deps)
    })
    app.addHook('onClose', async () => sweeper?.stop())
  },
  { name: 'media-custom-gestalts', dependencies: ['crv-base', 'crv-database'] },
)
