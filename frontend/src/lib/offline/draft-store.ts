import { indexedStore } from './indexed-store.ts'

/**
 * What a user wrote on this device, kept in IndexedDB per user and key (a practice session's
 * write-up) until the server has confirmed it, and after that as the newest copy this device
 * knows: a reload, a crash or a start without a network loses no word.
 */
export interface Draft<T> {
  userId: string
  key: string
  /** The newest text on this device. */
  value: T
  /** The server's revision `value` was written on: the one its save sends. */
  revision: number
  /** Whether the server confirmed `value` as `revision`. */
  saved: boolean
  /**
   * The text of a save sent and not answered yet. Found on the server later, that save arrived
   * (its answer was lost, or the page was left first): no other device wrote in between.
   */
  sent: T | null
  changedAt: string
}

const store = indexedStore('crv-drafts', 'drafts', ['userId', 'key'])

const idOf = (userId: string, key: string) => JSON.stringify([userId, key])

/** Each key's newest draft not yet written, and the writing of that key under way. */
const waiting = new Map<string, Draft<unknown>>()
const writing = new Map<string, Promise<void>>()

async function writeWaiting(id: string): Promise<void> {
  try {
    for (let next = waiting.get(id); next; next = waiting.get(id)) {
      waiting.delete(id)
      await store
        .run('readwrite', (drafts) => drafts.put(next))
        .catch(() => {
          // Storage full or refused: the text is still in the page and sent while online.
        })
    }
  } finally {
    writing.delete(id)
  }
}

/**
 * Keeps `draft`, replacing the key's earlier one. Called on every keystroke: the write starts
 * at once, and what comes while one is under way is written next, the newest only.
 */
export function keepDraft<T>(draft: Draft<T>): void {
  const id = idOf(draft.userId, draft.key)
  waiting.set(id, draft)
  if (!writing.has(id)) writing.set(id, writeWaiting(id))
}

/** The draft kept under `key` for `userId`, or null (none, or no storage on this browser). */
export async function readDraft<T>(userId: string, key: string): Promise<Draft<T> | null> {
  const id = idOf(userId, key)
  const unwritten = waiting.get(id)
  if (unwritten) return unwritten as Draft<T>
  try {
    const found = await store.run<Draft<T> | undefined>('readonly', (drafts) =>
      drafts.get([userId, key]),
    )
    return found ?? null
  } catch {
    return null
  }
}

/** Removes the draft under `key` (once what it held is stored for good, or was let go). */
export async function dropDraft(userId: string, key: string): Promise<void> {
  const id = idOf(userId, key)
  waiting.delete(id)
  await writing.get(id)
  try {
    await store.run('readwrite', (drafts) => drafts.delete([userId, key]))
  } catch {
    // Nothing was kept.
  }
}

async function dropWhere(remove: (draft: Draft<unknown>) => boolean): Promise<void> {
  await Promise.all(writing.values())
  try {
    const all = await store.run<Draft<unknown>[]>('readonly', (drafts) => drafts.getAll())
    for (const draft of all.filter(remove))
      await store.run('readwrite', (drafts) => drafts.delete([draft.userId, draft.key]))
  } catch {
    // No storage here: nothing was kept.
  }
}

/**
 * On signing out: the copies the server has confirmed go, everyone's (the next person at a
 * shared browser finds none, as with the service worker's copies); text the server has not
 * confirmed stays for its writer's next visit.
 */
export function dropSavedDrafts(): Promise<void> {
  return dropWhere((draft) => draft.saved)
}

/** Everything kept of `userId`, whose account is gone. */
export function forgetDrafts(userId: string): Promise<void> {
  return dropWhere((draft) => draft.userId === userId)
}
