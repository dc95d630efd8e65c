// Bounds the speech cache. Every distinct text anyone asks to hear is stored (~2–14 KB), so
// anonymous callers could grow it without end: entries unused for the TTL go, and past the size
// budget the least recently used go first until it is back under nine tenths of the budget.
import type { ObjectStorage, StoredObject } from '@crv/kit/storage'

export const SPEECH_PREFIX = 'speech/'

export interface SpeechCachePolicy {
  maxBytes: number
  ttlMs: number
}

export interface SweepReport {
  kept: number
  keptBytes: number
  removed: number
  removedBytes: number
}

/** When each key was last served by this process (writes count from their own time). */
export class SpeechCacheUse {
  private readonly lastUse = new Map<string, number>()

  touch(key: string, now = Date.now()): void {
    // Re-inserting keeps the map in use order; it is bounded by the cache's own size.
    this.lastUse.delete(key)
    this.lastUse.set(key, now)
    if (this.lastUse.size > 200_000) {
      const oldest = this.lastUse.keys().next().value
      if (oldest !== undefined) this.lastUse.delete(oldest)
    }
  }

  lastUsed(object: StoredObject): number {
    return Math.max(this.lastUse.get(object.key) ?? 0, object.lastModified.getTime())
  }

  forget(key: string): void {
    this.lastUse.delete(key)
  }
}

export async function sweepSpeechCache(
  storage: ObjectStorage,
  policy: SpeechCachePolicy,
  use: SpeechCacheUse,
  now = Date.now(),
): Promise<SweepReport> {
  const objects = (await storage.list(SPEECH_PREFIX))
    .map((object) => ({ object, usedAt: use.lastUsed(object) }))
    .sort((a, b) => a.usedAt - b.usedAt)
  const report: SweepReport = { kept: 0, keptBytes: 0, removed: 0, removedBytes: 0 }
  const remove = async (object: StoredObject) => {
    await storage.delete(object.key)
    use.forget(object.key)
    report.removed += 1
    report.removedBytes += object.size
  }
  const live: StoredObject[] = []
  for (const { object, usedAt } of objects) {
    if (now - usedAt > policy.ttlMs) await remove(object)
    else live.push(object)
  }
  let total = live.reduce((sum, o) => sum + o.size, 0)
  // Past the budget, down to nine tenths of it, so the next sweep is not due at once.
  const target = total > policy.maxBytes ? Math.floor(policy.maxBytes * 0.9) : total
  for (const object of live) {
    if (total > target) {
      await remove(object)
      total -= object.size
    } else {
      report.kept += 1
      report.keptBytes += object.size
    }
  }
  return report
}
