import type { Database } from '@crv/kit/db'
import { sharedDescriptors } from './repository.ts'
import type { Descriptor } from './repository.ts'
import type { Language } from './vocabulary.ts'

/**
 * The system and approved descriptors of each language, kept in memory: every trainer load
 * reads them, and they change only when an administrator acts. This process drops a language
 * at once when it changes it; other replicas see the change within `ttlMs`.
 */
export class SharedVocabulary {
  private readonly db: Database
  private readonly ttlMs: number
  private readonly entries = new Map<Language, { at: number; value: Promise<Descriptor[]> }>()

  constructor(db: Database, ttlMs = 30_000) {
    this.db = db
    this.ttlMs = ttlMs
  }

  get(language: Language): Promise<Descriptor[]> {
    const entry = this.entries.get(language)
    if (entry && Date.now() - entry.at < this.ttlMs) return entry.value
    const value = sharedDescriptors(this.db, language)
    this.entries.set(language, { at: Date.now(), value })
    value.catch(() => this.entries.delete(language))
    return value
  }

  invalidate(language?: Language): void {
    if (language) this.entries.delete(language)
    else this.entries.clear()
  }
}
