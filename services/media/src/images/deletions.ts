import type { MediaDeps } from '../deps.ts'
import { deletionDone, deletionFailed, dueDeletions } from './repository.ts'

type Deps = Pick<MediaDeps, 'db' | 'storage' | 'log'>

/** Attempts right after the commit, before the sweeper takes over. */
const IMMEDIATE_ATTEMPTS = 3
const IMMEDIATE_BACKOFF_MS = 100
export const SWEEP_INTERVAL_MS = 30_000
const SWEEP_BATCH = 100

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Removes a queued object from storage, retrying a few times at once; when storage still
 * fails the object stays queued (with backoff) for the sweeper. True when it is gone.
 */
export async function removeQueuedObject(
  deps: Deps,
  objectKey: string,
  attempts = IMMEDIATE_ATTEMPTS,
): Promise<boolean> {
  let lastError: unknown
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await pause(IMMEDIATE_BACKOFF_MS * 2 ** (attempt - 1))
    try {
      await deps.storage.delete(objectKey)
      await deletionDone(deps.db, objectKey)
      return true
    } catch (err) {
      lastError = err
    }
  }
  const message = lastError instanceof Error ? lastError.message : String(lastError)
  deps.log.warn({ objectKey, err: message }, 'image object deletion failed; queued for retry')
  await deletionFailed(deps.db, objectKey, message)
  return false
}

/** One pass over the queued deletions that are due; how many objects were removed. */
export async function sweepImageDeletions(deps: Deps): Promise<number> {
  let removed = 0
  for (const key of await dueDeletions(deps.db, SWEEP_BATCH)) {
    if (await removeQueuedObject(deps, key, 1)) removed += 1
  }
  return removed
}

/** Retries queued deletions on a timer until `stop` is called (when the app closes). */
export function startImageDeletionSweeper(deps: Deps, intervalMs = SWEEP_INTERVAL_MS) {
  let running = false
  const sweep = () => {
    if (running) return
    running = true
    sweepImageDeletions(deps)
      .catch((err: unknown) => deps.log.warn({ err }, 'image deletion sweep failed'))
      .finally(() => {
        running = false
      })
  }
  const timer = setInterval(sweep, intervalMs)
  timer.unref()
  return { sweep, stop: () => clearInterval(timer) }
}
