import type { Card } from 'ts-fsrs'
import type { Descriptor } from './views.ts'
import { LANGUAGES } from './shipped.ts'
import type { Language } from './shipped.ts'

/** A word the caller may review, with its review card as this process last saw it (null: none). */
export interface KnownCard {
  language: Language
  card: Card | null
  first: Date | null
}

/** Most cards kept per user (a few review queues' worth) and most users with cards kept. */
const MAX_CARDS_PER_USER = 1_000
const MAX_CARD_USERS = 500

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
  private readonly cards = new Map<string, { at: number; known: Map<number, KnownCard> }>()
  /** Counts every forget and clear: a card read before one is not kept after it. */
  private forgets = 0

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

  /** After a write of this user's words, hides or reviews has committed. */
  forget(userId: string): void {
    for (const language of LANGUAGES) this.entries.delete(keyOf(userId, language))
    this.cards.delete(userId)
    this.forgets += 1
  }

  /** After an administrator's write, which can touch anyone's words. */
  clear(): void {
    this.entries.clear()
    this.cards.clear()
    this.forgets += 1
  }

  /** Taken before reading cards from the database, and given back to `rememberCards`. */
  get cardEpoch(): number {
    return this.forgets
  }

  /**
   * The review cards of the caller's words as this process last read or wrote them, so that an
   * answer to a card its queue just showed needs no read first. A kept card may be behind the
   * database (another replica, a device that answered meanwhile); its writer checks the card's
   * repetitions in the same statement and replays the answers when they differ.
   */
  knownCard(userId: string, descriptorId: number): KnownCard | undefined {
    if (!this.enabled) return undefined
    const entry = this.cards.get(userId)
    if (!entry || Date.now() - entry.at >= this.ttlMs) return undefined
    const known = entry.known.get(descriptorId)
    return known && { ...known }
  }

  /** Keeps cards read or written since `epoch`, unless something was forgotten meanwhile. */
  rememberCards(userId: string, epoch: number, cards: Iterable<[number, KnownCard]>): void {
    if (!this.enabled || epoch !== this.forgets) return
    const kept = this.cards.get(userId)
    const entry =
      kept && Date.now() - kept.at < this.ttlMs
        ? kept
        : { at: Date.now(), known: new Map<number, KnownCard>() }
    this.cards.delete(userId)
    this.cards.set(userId, entry) // most recently used last
    entry.at = Date.now()
    for (const [id, card] of cards) {
      entry.known.delete(id)
      entry.known.set(id, card)
    }
    for (const oldest of entry.known.keys()) {
      if (entry.known.size <= MAX_CARDS_PER_USER) break
      entry.known.delete(oldest)
    }
    for (const oldest of this.cards.keys()) {
      if (this.cards.size <= MAX_CARD_USERS) break
      this.cards.delete(oldest)
    }
  }

  get size(): number {
    return this.entries.size
  }
}

const keyOf = (userId: string, language: Language) => `${language}:${userId}`
