import { encodeBody } from '@crv/kit'
import type { ContentEncoding } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { listCategories, sharedDescriptors } from './repository.ts'
import { membershipsOf } from './views.ts'
import type { ApiCategory, Descriptor, Membership } from './views.ts'
import type { Language, Stage } from './shipped.ts'

/** Anonymous callers train on this stage only. */
export const OPEN_STAGE: Stage = 'Stage 1-2'

type Groups = { categoryId: number; descriptorIds: number[] }[]

/**
 * One language's shared vocabulary, prepared for the trainer's two hot calls: each descriptor
 * already serialised (the bulk list is ~900 objects; serialising them per request cost ~2 ms of
 * CPU, docs/decisions.md), the category groups, the visitor's whole answer, and an index by
 * category for drawing random words.
 */
export class VocabularySnapshot {
  readonly language: Language
  readonly descriptors: Descriptor[]
  /** Every descriptor's JSON, comma-separated, as bytes; entry i spans `spans[i]`. */
  private readonly systemBytes: Buffer
  private readonly spans: [number, number][]
  /** Each category's words; a word of several categories is in each of their lists. */
  readonly byCategory: Map<number, Descriptor[]>
  /** The stage of each category in `byCategory`. */
  readonly stageOf: Map<number, Stage>
  readonly groups: { gestalt: Groups; perception: Groups }
  private readonly groupsJson: { gestalt: string; perception: string }
  private readonly indexById: Map<number, number>
  /** The whole bulk answer for a visitor (Stage 1-2, no custom words, no hides). */
  readonly visitorBody: Buffer

  constructor(language: Language, descriptors: Descriptor[]) {
    this.language = language
    this.descriptors = descriptors
    const json = descriptors.map((d) => JSON.stringify(d.api))
    this.systemBytes = Buffer.from(json.join(','))
    let at = 0
    this.spans = json.map((j) => {
      const span: [number, number] = [at, at + Buffer.byteLength(j)]
      at = span[1] + 1
      return span
    })
    this.indexById = new Map(descriptors.map((d, i) => [d.api.id, i]))
    this.byCategory = new Map()
    this.stageOf = new Map()
    for (const d of descriptors) {
      for (const { categoryId, stage } of membershipsOf(d)) {
        const list = this.byCategory.get(categoryId) ?? []
        list.push(d)
        this.byCategory.set(categoryId, list)
        this.stageOf.set(categoryId, stage)
      }
    }
    this.groups = {
      gestalt: groupsOf(descriptors, 'gestalt'),
      perception: groupsOf(descriptors, 'perception'),
    }
    this.groupsJson = {
      gestalt: JSON.stringify(this.groups.gestalt),
      perception: JSON.stringify(this.groups.perception),
    }
    // A word of a later stage that also stands in a Stage 1-2 category is open there.
    const isOpen = (m: Membership) => m.stage === OPEN_STAGE
    const open = descriptors.filter((d) => membershipsOf(d).some(isOpen))
    this.visitorBody = Buffer.from(
      bulkHead +
        open.map((d) => JSON.stringify(d.api)).join(',') +
        bulkTail(this.language, {
          custom: [],
          hiddenIds: [],
          totalCount: open.length,
          byGestalt: JSON.stringify(groupsOf(open, 'gestalt', isOpen)),
          byPerception: JSON.stringify(groupsOf(open, 'perception', isOpen)),
        }),
    )
  }

  /** A shared word of this language by its id. */
  find(id: number): Descriptor | undefined {
    const at = this.indexById.get(id)
    return at === undefined ? undefined : this.descriptors[at]
  }

  /**
   * The shared words a random draw picks from: those of the chosen categories whose stage is
   * chosen, less the caller's hides. A word of several chosen categories (soft: First Feelings
   * and Textures) is in it once, so it comes up no more often than any other.
   */
  pool(
    categories: ReadonlySet<number>,
    stages: ReadonlySet<Stage>,
    hidden?: ReadonlySet<number>,
  ): Descriptor[] {
    const pool: Descriptor[] = []
    // One category lists each word once: then there is nothing to count.
    const inPool = categories.size > 1 ? new Set<number>() : null
    for (const id of categories) {
      const stage = this.stageOf.get(id)
      if (!stage || !stages.has(stage)) continue
      for (const d of this.byCategory.get(id) ?? []) {
        if (hidden?.has(d.api.id)) continue
        if (inPool) {
          if (inPool.has(d.api.id)) continue
          inPool.add(d.api.id)
        }
        pool.push(d)
      }
    }
    return pool
  }

  private readonly visitorEncodings = new Map<ContentEncoding, Buffer>()

  /** The visitor's answer compressed, made once per snapshot (47 KB of JSON → about 8 KB). */
  visitorBodyIn(coding: ContentEncoding): Buffer {
    let encoded = this.visitorEncodings.get(coding)
    if (!encoded) {
      encoded = encodeBody(this.visitorBody, coding, 'once')
      this.visitorEncodings.set(coding, encoded)
    }
    return encoded
  }

  /** The bulk answer of a signed-in caller, with their own words and hides. */
  bodyFor(custom: Descriptor[], hidden: ReadonlySet<number>): Buffer {
    const hiddenAt = [...hidden]
      .map((id) => this.indexById.get(id))
      .filter((i): i is number => i !== undefined)
      .sort((a, b) => a - b)
    // The shared bytes as they are, with each hidden entry swapped for its hidden form.
    const parts: Buffer[] = [headBytes]
    let from = 0
    for (const i of hiddenAt) {
      const [start, end] = this.spans[i] as [number, number]
      parts.push(this.systemBytes.subarray(from, start))
      parts.push(
        Buffer.from(JSON.stringify({ ...(this.descriptors[i] as Descriptor).api, hidden: true })),
      )
      from = end
    }
    parts.push(this.systemBytes.subarray(from))
    const withCustom = (type: 'gestalt' | 'perception') =>
      custom.some((d) => membershipsOf(d).some((m) => m.categoryType === type))
        ? JSON.stringify(groupsOf([...this.descriptors, ...custom], type))
        : this.groupsJson[type]
    parts.push(
      Buffer.from(
        bulkTail(this.language, {
          custom: custom.map((d) => JSON.stringify(d.api)),
          hiddenIds: hiddenAt.map((i) => (this.descriptors[i] as Descriptor).api.id),
          totalCount: this.descriptors.length + custom.length,
          byGestalt: withCustom('gestalt'),
          byPerception: withCustom('perception'),
        }),
      ),
    )
    return Buffer.concat(parts)
  }
}

/** The ids of each category's words, a word in each category it stands in. */
function groupsOf(
  descriptors: Descriptor[],
  type: 'gestalt' | 'perception',
  shown: (m: Membership) => boolean = () => true,
): Groups {
  const byCategory = new Map<number, number[]>()
  for (const d of descriptors) {
    for (const m of membershipsOf(d)) {
      if (m.categoryType !== type || !shown(m)) continue
      const list = byCategory.get(m.categoryId) ?? []
      list.push(d.api.id)
      byCategory.set(m.categoryId, list)
    }
  }
  return [...byCategory].map(([categoryId, descriptorIds]) => ({ categoryId, descriptorIds }))
}

// The contract's BulkDescriptors, assembled from already serialised parts.
const bulkHead = '{"systemDescriptors":['
const headBytes = Buffer.from(bulkHead)

function bulkTail(
  language: Language,
  parts: {
    custom: string[]
    hiddenIds: number[]
    totalCount: number
    byGestalt: string
    byPerception: string
  },
): string {
  return (
    `],"userCustomDescriptors":[${parts.custom.join(',')}]` +
    `,"hiddenDescriptorIds":${JSON.stringify(parts.hiddenIds)}` +
    `,"language":${JSON.stringify(language)}` +
    `,"totalCount":${parts.totalCount}` +
    `,"byGestalt":${parts.byGestalt},"byPerception":${parts.byPerception}}`
  )
}

/**
 * The system and approved descriptors of each language, kept in memory: every trainer load
 * reads them, and they change only when an administrator acts. This process drops a language
 * at once when it changes it; other replicas see the change within `ttlMs`.
 */
export class SharedVocabulary {
  private readonly db: Database
  private readonly ttlMs: number
  private readonly entries = new Map<
    Language,
    { at: number; value: Promise<VocabularySnapshot>; refreshing: boolean }
  >()

  private readonly categoryLists = new Map<string, { at: number; value: Promise<ApiCategory[]> }>()
  private readonly listeners: (() => void)[] = []

  constructor(db: Database, ttlMs = 30_000) {
    this.db = db
    this.ttlMs = ttlMs
  }

  /** The gestalts or perceptions with their names in a language (they change only by a seed). */
  categories(type: 'gestalt' | 'perception', language: Language): Promise<ApiCategory[]> {
    const key = `${type}:${language}`
    const kept = this.categoryLists.get(key)
    if (kept && Date.now() - kept.at < this.ttlMs) return kept.value
    const entry = { at: Date.now(), value: listCategories(this.db, type, language) }
    this.categoryLists.set(key, entry)
    entry.value.catch(() => {
      if (this.categoryLists.get(key) === entry) this.categoryLists.delete(key)
    })
    return entry.value
  }

  /** Called on every invalidation: what is derived from the vocabulary goes with it. */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener)
  }

  snapshot(language: Language): Promise<VocabularySnapshot> {
    const entry = this.entries.get(language)
    if (!entry) {
      const value = this.load(language)
      this.entries.set(language, { at: Date.now(), value, refreshing: false })
      return value
    }
    // Stale: answer from what we have while a fresh copy loads, so no caller waits on it.
    if (Date.now() - entry.at >= this.ttlMs && !entry.refreshing) {
      entry.refreshing = true
      const value = this.load(language)
      value.then(
        () => {
          // Unless this language was dropped meanwhile: then the next call loads it anew.
          if (this.entries.get(language) === entry)
            this.entries.set(language, { at: Date.now(), value, refreshing: false })
        },
        () => {
          entry.refreshing = false
        },
      )
    }
    return entry.value
  }

  private load(language: Language): Promise<VocabularySnapshot> {
    const value = sharedDescriptors(this.db, language).then(
      (list) => new VocabularySnapshot(language, list),
    )
    value.catch(() => {
      if (this.entries.get(language)?.value === value) this.entries.delete(language)
    })
    return value
  }

  async get(language: Language): Promise<Descriptor[]> {
    return (await this.snapshot(language)).descriptors
  }

  invalidate(language?: Language): void {
    if (language) this.entries.delete(language)
    else {
      this.entries.clear()
      this.categoryLists.clear()
    }
    for (const listener of this.listeners) listener()
  }
}
