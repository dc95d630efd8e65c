type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

/**
 * Writes not yet confirmed by the server, kept in the browser under one key per kind and user:
 * what was done offline survives a reload and is sent when the network is back. Each entry
 * carries the id it was made with, so the server counts an entry sent twice once.
 */
export function readOutbox<T extends { id: string }>(
  storage: Storage | null | undefined,
  key: string,
): T[] {
  try {
    const raw = storage?.getItem(key)
    const list: unknown = raw ? JSON.parse(raw) : []
    return Array.isArray(list) ? (list as T[]) : []
  } catch {
    return []
  }
}

export function writeOutbox<T extends { id: string }>(
  storage: Storage | null | undefined,
  key: string,
  entries: readonly T[],
): void {
  try {
    if (entries.length === 0) storage?.removeItem(key)
    else storage?.setItem(key, JSON.stringify(entries))
  } catch {
    // Storage full or refused: the entry is still sent while online.
  }
}

/** The outbox less the entries the server has recorded. */
export function withoutSettled<T extends { id: string }>(
  outbox: readonly T[],
  settled: readonly string[],
): T[] {
  const done = new Set(settled)
  return outbox.filter((entry) => !done.has(entry.id))
}

/** A v4 UUID, also where `crypto.randomUUID` is missing (a page not served over HTTPS). */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
