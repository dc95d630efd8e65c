// Targets stored without a perceptual hash (those from before the hash existed, and those the
// starter seed adds) get one from their stored picture: once in the background after start-up,
// and for a pool right before anything is checked against it, so no check misses one.
import { buffer } from 'node:stream/consumers'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '@crv/kit/db'
import type { ObjectStorage } from '@crv/kit/storage'
import { imageObjectKey } from '../seed.ts'
import { perceptualHashOf } from './perceptual-hash.ts'
import { saveHash, unhashedTargets } from './repository.ts'

export interface BackfillResult {
  hashed: number
  /** Targets whose picture is not in storage or cannot be decoded: they stay without a hash. */
  unreadable: string[]
}

/**
 * Hashes every target without a hash (of one pool, or of all). `shouldStop` ends the walk
 * between two pictures. Each picture's hash takes ~8 ms of the event loop, so the walk yields
 * between pictures and requests wait at most that long behind it.
 */
export async function hashMissing(
  db: Database,
  storage: ObjectStorage,
  options: { poolId?: string; shouldStop?: () => boolean } = {},
): Promise<BackfillResult> {
  const result: BackfillResult = { hashed: 0, unreadable: [] }
  let afterId: string | null = null
  for (;;) {
    const batch = await unhashedTargets(db, { poolId: options.poolId, afterId, limit: 50 })
    if (batch.length === 0) return result
    for (const target of batch) {
      if (options.shouldStop?.()) return result
      afterId = target.id
      const stored = await storage.get(imageObjectKey(target.imageKey)).catch(() => null)
      const hash = stored ? await buffer(stored.body).then(perceptualHashOf, () => null) : null
      if (!hash) {
        result.unreadable.push(target.id)
        continue
      }
      await saveHash(db, target.id, hash)
      result.hashed++
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/** Hashes what lacks a hash once the service is ready; stops when it closes. */
export const perceptualHashBackfill = fp(
  async (app: FastifyInstance, { storage }: { storage: ObjectStorage }) => {
    let stopped = false
    let running: Promise<unknown> = Promise.resolve()
    app.addHook('onReady', async () => {
      running = hashMissing(app.db, storage, { shouldStop: () => stopped }).then(
        ({ hashed, unreadable }) => {
          if (hashed > 0) app.log.info({ hashed }, 'perceptual hashes of targets computed')
          if (unreadable.length > 0) {
            app.log.warn(
              { targets: unreadable.slice(0, 20), count: unreadable.length },
              'targets whose stored picture cannot be read have no perceptual hash',
            )
          }
        },
        (err: Error) => app.log.warn({ err: err.message }, 'perceptual hashes not computed'),
      )
    })
    app.addHook('onClose', async () => {
      stopped = true
      await running
    })
  },
  { name: 'practice-perceptual-hash-backfill' },
)
