import type { MediaDeps } from '../deps.ts'
import { deletionDone, deletionFailed, dueDeletions } from './repository.ts'

/** How often queued object deletions are retried. */
export const SWEEP_INTERVAL_MS = 30_000
const SWEEP_BATCH = 100

type Deps = Pick<MediaDeps, 'db' | 'storage' | 'log'>

/**
 * Removes one queued object from storage and forgets it; on failure it stays queued with a
 * later retry time. Deleting an object twice is harmless, so replicas may race here.
 */
export async function removeQueuedObject(deps: Deps, objectKey: string): Promise<boolean> {
  try {
    await deps.storage.delete(objectKey)
  } catch (err) {
    deps.log.warn({ err, objectKey }, 'object deletion failed; will retry')
    await deletionFailed(deps.db, objectKey, (err as Error).message ?? String(err))
    return false
  }
  await deletionDone(deps.db, objectKey)
  return true
}

/** One pass over the deletions that are due. Returns how many objects were removed. */
export async function sweepPendingDeletions(deps: Deps): Promise<number> {
  let removed = 0
  for (const { objectKey } of await dueDeletions(deps.db, SWEEP_BATCH)) {
    if (await removeQueuedObject(deps, objectKey)) removed += 1
  }
  return removed
}

/** Retries queued deletions on a timer until `stop` is called (when the app closes). */
export function startDeletionSweeper(deps: Deps) {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    sweepPendingDeletions(deps)
      .catch((err: unknown) => deps.log.warn({ err }, 'deletion sweep failed'))
      .finally(() => {
        running = false
      })
  }, SWEEP_INTERVAL_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
