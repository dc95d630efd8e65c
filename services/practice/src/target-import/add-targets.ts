// Adding checked targets, for the import and the admin upload alike: the pictures are stored
// first, recorded as pending, and the rows follow in one transaction that also clears that
// record, after a last near-duplicate check under the pool's lock. So no row ever names a
// picture that is not stored, and a picture whose rows never came (a run that died, a failed
// commit) is still recorded, and removed: by this run when it can, else by the sweeper.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { repeatingJob } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { ObjectStorage } from '@crv/kit/storage'
import { nearestDuplicate } from '../near-duplicates/perceptual-hash.ts'
import { poolHashes } from '../near-duplicates/repository.ts'
import type { Executor } from '../near-duplicates/repository.ts'
import { imageObjectKey, newImageKey } from '../seed.ts'
import { nearDuplicate } from './reasons.ts'
import type { Reason } from './reasons.ts'
import {
  abandonedPendingImages,
  forgetPendingImages,
  insertTargets,
  lockPoolTargets,
  recordPendingImages,
} from './repository.ts'
import type { TargetToInsert } from './repository.ts'

export type NewTarget = Omit<TargetToInsert, 'imageKey'> & { image: Buffer }

export type AddOutcome = { targetId: string } | { reason: Reason }

interface Deps {
  db: Database
  storage: ObjectStorage
  log?: Pick<FastifyBaseLogger, 'warn'>
}

/**
 * Adds all the targets or, when anything fails, none; one outcome per target, in order.
 * `within` runs in the same transaction once the rows are in (their ids by image key): what it
 * writes commits with them, and what it throws undoes them.
 */
export async function addTargets(
  deps: Deps,
  poolId: string,
  targets: NewTarget[],
  within?: (tx: Executor, added: ReadonlyMap<string, string>) => Promise<void>,
): Promise<AddOutcome[]> {
  const { db, storage } = deps
  if (targets.length === 0) return []
  const keyed = targets.map((t) => ({ ...t, imageKey: newImageKey() }))
  const keys = keyed.map((t) => t.imageKey)
  await recordPendingImages(db, keys)
  let outcomes: AddOutcome[]
  try {
    for (const t of keyed) {
      await storage.put(imageObjectKey(t.imageKey), t.image, { contentType: 'image/jpeg' })
    }
    outcomes = await db.transaction(async (tx) => {
      await lockPoolTargets(tx, poolId)
      // Another run may have added a look-alike since this one was checked.
      const existing = await poolHashes(tx, poolId)
      const refused = new Map<string, Reason>()
      for (const t of keyed) {
        const found = nearestDuplicate(t.hash, existing)
        if (found) refused.set(t.imageKey, nearDuplicate(found.match, found.distance))
      }
      const added = await insertTargets(
        tx,
        poolId,
        keyed.filter((t) => !refused.has(t.imageKey)),
      )
      await forgetPendingImages(tx, [...added.keys()])
      await within?.(tx, added)
      return keyed.map((t): AddOutcome => {
        const reason = refused.get(t.imageKey)
        if (reason) return { reason }
        const targetId = added.get(t.imageKey)
        if (!targetId) throw new Error(`no row came back for picture ${t.imageKey}`)
        return { targetId }
      })
    })
  } catch (err) {
    await removePictures(deps, keys)
    throw err
  }
  await removePictures(
    deps,
    keyed.filter((_, i) => 'reason' in (outcomes[i] ?? {})).map((t) => t.imageKey),
  )
  return outcomes
}

/**
 * Removes stored pictures without rows, then their pending records (kept for the sweeper when
 * the storage refuses); how many went.
 */
async function removePictures(deps: Deps, imageKeys: string[]): Promise<number> {
  const removed: string[] = []
  for (const key of imageKeys) {
    try {
      await deps.storage.delete(imageObjectKey(key))
      removed.push(key)
    } catch (err) {
      deps.log?.warn({ err: (err as Error).message, key }, 'picture without a target not removed')
    }
  }
  await forgetPendingImages(deps.db, removed).catch((err: Error) =>
    deps.log?.warn({ err: err.message }, 'pending pictures not cleared'),
  )
  return removed.length
}

/** How long a run may take between storing its pictures and committing their rows. */
const ABANDONED_AFTER_MINUTES = 60
const SWEEP_EVERY_MS = 60 * 60_000

/** Removes the pictures of runs that died before their rows were committed. */
export async function sweepAbandonedPictures(deps: Deps): Promise<number> {
  let removed = 0
  for (;;) {
    const keys = await abandonedPendingImages(deps.db, ABANDONED_AFTER_MINUTES, 100)
    const gone = keys.length === 0 ? 0 : await removePictures(deps, keys)
    removed += gone
    // Pictures the storage would not remove now are tried again at the next sweep.
    if (gone < 100) return removed
  }
}

/** The sweeper: at start-up and every hour; stops when the service closes. */
export const abandonedPicturesSweeper = fp(
  async (app: FastifyInstance, { storage }: { storage: ObjectStorage }) => {
    await repeatingJob(app, {
      name: 'pictures of unfinished imports',
      everyMs: SWEEP_EVERY_MS,
      runOnReady: true,
      run: async () => {
        const removed = await sweepAbandonedPictures({ db: app.db, storage, log: app.log })
        if (removed > 0) app.log.info({ removed }, 'pictures of unfinished imports removed')
      },
    })
  },
  { name: 'practice-abandoned-pictures-sweeper' },
)
