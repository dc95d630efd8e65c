// The commitments published at a session's start, kept in this browser's IndexedDB: the reveal is
// checked against this copy, which the server cannot change afterwards, not against the copy in
// the same answer that reveals the target.
import { indexedStore } from '../../lib/offline/indexed-store.ts'

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

const store = indexedStore(DATABASE, STORE, 'key')

/**
 * Keeps a start's commitments; a record already kept under the same key stays as it was (the
 * first copy is the one that counts). False when this browser cannot keep it (storage off,
 * private mode): the start goes on, and the reveal says it has only the server's copy.
 */
export async function keepCommitments(record: Omit<KeptCommitments, 'keptAt'>): Promise<boolean> {
  try {
    await store.run('readwrite', (commitments) =>
      commitments.add({ ...record, keptAt: new Date().toISOString() }),
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
    const found = await store.run<KeptCommitments | undefined>('readonly', (commitments) =>
      commitments.get(key),
    )
    return found ?? null
  } catch {
    return null
  }
}
