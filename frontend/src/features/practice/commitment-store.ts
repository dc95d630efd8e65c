// The commitments published at a session's start, kept in this browser's IndexedDB: the reveal is
// checked against this copy, which the server cannot change afterwards, not against the copy in
// the same answer that reveals the target.

/** What the start published, as kept on this device. */
export interface KeptCommitments {
  /** The session's id, or `trial:{trn}@{startedAt}` for a visitor's trial (nothing on the server). */
  key: string
  sessionId: string | null
  trn: string
  commitment: string
  candidateCommitment: string
  startedAt: string
  candidateCount: number
  frontloading: string | null
  keptAt: string
}

const DATABASE = 'crv-practice'
const STORE = 'commitments'

export const trialKey = (trn: string, startedAt: string) => `trial:${trn}@${startedAt}`

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'))
  })
}

let opened: Promise<IDBDatabase> | null = null

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('IndexedDB is not available'))
      return
    }
    const open = indexedDB.open(DATABASE, 1)
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: 'key' })
    open.onsuccess = () => {
      // Another tab (or a person clearing the site's data) deletes or upgrades the database:
      // let it, and open it afresh next time.
      open.result.onversionchange = () => {
        open.result.close()
        opened = null
      }
      resolve(open.result)
    }
    open.onerror = () => reject(open.error ?? new Error('IndexedDB could not be opened'))
    // Another tab holds an older version open: better no copy than a start that hangs.
    open.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'))
  }).catch((error: unknown) => {
    opened = null
    throw error
  })
  return opened
}

async function inStore<T>(
  mode: IDBTransactionMode,
  action: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const db = await database()
  const transaction = db.transaction(STORE, mode)
  const done = new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'))
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'))
  })
  const [result] = await Promise.all([request(action(transaction.objectStore(STORE))), done])
  return result
}

/**
 * Keeps a start's commitments; a record already kept under the same key stays as it was (the
 * first copy is the one that counts). False when this browser cannot keep it (storage off,
 * private mode): the start goes on, and the reveal says it has only the server's copy.
 */
export async function keepCommitments(record: Omit<KeptCommitments, 'keptAt'>): Promise<boolean> {
  try {
    await inStore('readwrite', (store) =>
      store.add({ ...record, keptAt: new Date().toISOString() }),
    )
    return true
  } catch (error) {
    // add() refuses a key already there: that copy is kept.
    return error instanceof DOMException && error.name === 'ConstraintError'
  }
}

/** The copy kept at the start, or null when this device kept none. */
export async function keptCommitments(key: string): Promise<KeptCommitments | null> {
  try {
    const found = await inStore<KeptCommitments | undefined>('readonly', (store) => store.get(key))
    return found ?? null
  } catch {
    return null
  }
}
