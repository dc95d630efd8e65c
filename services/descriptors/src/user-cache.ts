import type { Descriptor } from './repository.ts'
import { LANGUAGES } from './vocabulary.ts'
import type { Language } from './vocabulary.ts'

/** A signed-in caller's part of the trainer: their own words in a language and the ids they hid. */
export interface UserState {
  custom: Descriptor[]
  hidden: ReadonlySet<number>
}

export interface UserStatesOptions {
  /** Keep states in memory; only where this process is the one replica that writes them. */
  enabled: boolean
  /** Most (user, language) states kept; the least recently used goes first. */
  maxEntries?: number
  /** A kept state is read again after this long, whatever happened meanwhile. */
  ttlMs?: number
}

/**
 * The trainer's per-caller reads, kept per process when one process serves every write of them
 * (the embedded stack: its database answers one query at a time, so this round trip on every
 * random word was most of the trainer's latency, docs/decisions.md). Every write that can change
 * a state forgets it here after it commits: the caller's own (a word added or deleted, a hide
 * toggled) by user, an administrator's (promote, reject, delete, seed) all at once.
 *
 * The promise is kept from the moment a read starts, so a write's `forget` also drops a read
 * still in flight; a read that began before a write never becomes the kept state after it.
 */
export class UserStates {
  private readonly load: (userId: string, language: Language) => Promise<UserState>
  private readonly enabled: boolean
  private readonly maxEntries: number
  private readonly ttlMs: number
  private readonly entries = new Map<string, { at: number; value: Promise<UserState> }>()

  constructor(
    load: (userId: string, language: Language) => Promise<UserState>,
    { enabled, maxEntries = 5_000, ttlMs = 60_000 }: UserStatesOptions,
  ) {
    this.load = load
    this.enabled = enabled
    this.maxEntries = maxEntries
    this.ttlMs = ttlMs
  }

  get(userId: string, language: Language): Promise<UserState> {
    if (!this.enabled) return this.load(userId, language)
    const key = keyOf(userId, language)
    const entry = this.entries.get(key)
    this.entries.delete(key)
    if (entry && Date.now() - entry.at < this.ttlMs) {
      this.entries.set(key, entry) // most recently used last
      return entry.value
    }
    const value = this.load(userId, language)
    const kept = { at: Date.now(), value }
    this.entries.set(key, kept)
    value.catch(() => {
      if (this.entries.get(key) === kept) this.entries.delete(key)
    })
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break
      this.entries.delete(oldest)
    }
    return value
  }

  /** After a write of this user's words or hides has committed. */
  forget(userId: string): void {
    for (const language of LANGUAGES) this.entries.delete(keyOf(userId, language))
  }

  /** After an administrator's write, which can touch anyone's words. */
  clear(): void {
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }
}

const keyOf = (userId: string, language: Language) => `${language}:${userId}`
