/**
 * One object store in an IndexedDB database of its own: opened on first use, and opened afresh
 * after another tab (or a person clearing the site's data) upgraded or deleted it.
 */
export interface IndexedStore {
  /**
   * Runs `action` in a transaction of its own and resolves with its request's result once the
   * transaction has committed. A write is committed at once, not when the page's task ends: a
   * page being left (a reload) would otherwise abort it.
   */
  run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T>
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'))
  })
}

export function indexedStore(
  database: string,
  store: string,
  keyPath: string | string[],
): IndexedStore {
  let opened: Promise<IDBDatabase> | null = null

  function open(): Promise<IDBDatabase> {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      if (typeof indexedDB === 'undefined') {
        reject(new Error('IndexedDB is not available'))
        return
      }
      const opening = indexedDB.open(database, 1)
      opening.onupgradeneeded = () => opening.result.createObjectStore(store, { keyPath })
      opening.onsuccess = () => {
        opening.result.onversionchange = () => {
          opening.result.close()
          opened = null
        }
        resolve(opening.result)
      }
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB could not be opened'))
      // Another tab holds an older version open: better no copy than a page that hangs.
      opening.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'))
    }).catch((error: unknown) => {
      opened = null
      throw error
    })
    return opened
  }

  return {
    async run(mode, action) {
      const db = await open()
      const transaction = db.transaction(store, mode)
      const done = new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve()
        transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'))
        transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'))
      })
      const asked = request(action(transaction.objectStore(store)))
      if (mode === 'readwrite') transaction.commit?.()
      const [result] = await Promise.all([asked, done])
      return result
    },
  }
}
