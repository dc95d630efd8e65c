import type {
  BulkDescriptors,
  Descriptor,
  Gestalt,
  Perception,
  RandomDescriptorRequest,
  Stage,
  TrainingLanguage,
} from '../../lib/api/generated.ts'

/** The CRV stages in the order the trainer shows them. */
export const stages = ['Stage 1-2', 'Stage 2-3', 'Stage 4-6'] as const satisfies readonly Stage[]

/** A stage's range, '1-2' of 'Stage 1-2', for the interface's own word for a stage. */
export function stageRange(stage: Stage): string {
  return stage.replace(/^Stage\s*/, '')
}

/** The one stage visitors may train without signing in. */
export const openStage: Stage = 'Stage 1-2'

export const defaultStages: readonly Stage[] = [openStage]

/** Words shown in a category's row before '+N more' (spec §9). */
export const sampleSize = 5

export type CategoryType = 'gestalt' | 'perception'

/** A gestalt or a perception, as one row of the categories table. */
export type Category = {
  /** Unique across both kinds, e.g. `gestalt:3`. */
  key: string
  id: number
  type: CategoryType
  name: string
  stage: Stage
}

export function categoryKey(type: CategoryType, id: number): string {
  return `${type}:${id}`
}

/** Gestalts first, then perceptions, each in the server's order. */
export function buildCategories(
  gestalts: readonly Gestalt[],
  perceptions: readonly Perception[],
): Category[] {
  return [
    ...gestalts.map((g) => ({ key: categoryKey('gestalt', g.id), type: 'gestalt' as const, ...g })),
    ...perceptions.map((p) => ({
      key: categoryKey('perception', p.id),
      type: 'perception' as const,
      ...p,
    })),
  ]
}

export function categoriesInStages(
  categories: readonly Category[],
  chosen: readonly Stage[],
): Category[] {
  return categories.filter((c) => chosen.includes(c.stage))
}

/**
 * Every category a descriptor stands in, as `Category.key`s: its first one, then those of
 * `alsoIn` (soft is in First Feelings, Textures and Dimensionals).
 */
export function categoryKeysOf(descriptor: Descriptor): string[] {
  const keys: string[] = []
  if (descriptor.gestaltId !== null) keys.push(categoryKey('gestalt', descriptor.gestaltId))
  else if (descriptor.perceptionId !== null)
    keys.push(categoryKey('perception', descriptor.perceptionId))
  for (const other of descriptor.alsoIn ?? []) keys.push(categoryKey(other.type, other.id))
  return keys
}

/**
 * The category a drawn word is shown under: the first of its categories the user trains
 * (soft drawn from Textures reads as a texture), else its first one.
 */
export function categoryKeyOf(
  descriptor: Descriptor,
  training: ReadonlySet<string> = new Set(),
): string | null {
  const keys = categoryKeysOf(descriptor)
  return keys.find((key) => training.has(key)) ?? keys[0] ?? null
}

export function isHidden(descriptor: Descriptor, hiddenIds: ReadonlySet<number>): boolean {
  return descriptor.hidden || hiddenIds.has(descriptor.id)
}

/** The user's own word: one they added, which they may delete (spec §3). */
export function isOwnDescriptor(descriptor: Descriptor, userId: string | null): boolean {
  return descriptor.isCustom && userId !== null && descriptor.createdBy === userId
}

/** A category's words as the caller sees them: defaults (hidden ones flagged), then their own. */
export type CategoryWords = { all: Descriptor[]; visible: Descriptor[] }

export function wordsByCategory(bulk: BulkDescriptors | undefined): Map<string, CategoryWords> {
  const byCategory = new Map<string, CategoryWords>()
  if (!bulk) return byCategory
  const hiddenIds = new Set(bulk.hiddenDescriptorIds)
  const seen = new Set<number>()
  for (const descriptor of [...bulk.systemDescriptors, ...bulk.userCustomDescriptors]) {
    // An approved word of the user's own is in both lists.
    if (seen.has(descriptor.id)) continue
    seen.add(descriptor.id)
    const hidden = isHidden(descriptor, hiddenIds)
    const entry = hidden && !descriptor.hidden ? { ...descriptor, hidden } : descriptor
    for (const key of categoryKeysOf(descriptor)) {
      let words = byCategory.get(key)
      if (!words) {
        words = { all: [], visible: [] }
        byCategory.set(key, words)
      }
      words.all.push(entry)
      if (!hidden) words.visible.push(descriptor)
    }
  }
  return byCategory
}

/** The first `size` words and how many more there are. */
export function sampleWords(
  words: readonly string[],
  size = sampleSize,
): { shown: string[]; more: number } {
  return { shown: words.slice(0, size), more: Math.max(0, words.length - size) }
}

/** Adds or removes `stage`; the last chosen stage stays. Keeps the trainer's order. */
export function toggleStage(chosen: readonly Stage[], stage: Stage): Stage[] {
  if (chosen.includes(stage)) {
    return chosen.length > 1 ? chosen.filter((s) => s !== stage) : [...chosen]
  }
  return stages.filter((s) => s === stage || chosen.includes(s))
}

export function toggleSelection(selected: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(selected)
  if (next.has(key)) next.delete(key)
  else next.add(key)
  return next
}

/** Drops selected categories that are no longer shown, e.g. after a stage was deselected. */
export function keepShownSelection(
  selected: ReadonlySet<string>,
  shown: readonly Category[],
): Set<string> {
  const shownKeys = new Set(shown.map((c) => c.key))
  return new Set([...selected].filter((key) => shownKeys.has(key)))
}

/** The body of a random-descriptor call, or null when no shown category is selected. */
export function trainingRequest(options: {
  selected: ReadonlySet<string>
  shown: readonly Category[]
  stages: readonly Stage[]
  language: TrainingLanguage
  excludeId?: number
}): RandomDescriptorRequest | null {
  const chosen = options.shown.filter((c) => options.selected.has(c.key))
  if (chosen.length === 0) return null
  const ids = (type: CategoryType) => chosen.filter((c) => c.type === type).map((c) => c.id)
  return {
    gestaltIds: ids('gestalt'),
    perceptionIds: ids('perception'),
    stages: [...options.stages],
    language: options.language,
    ...(options.excludeId !== undefined ? { excludeId: options.excludeId } : {}),
  }
}

/** Up to `limit` other visible words of the category, in random order, for 'Reveal'. */
export function relatedDescriptors(
  visible: readonly Descriptor[],
  current: Descriptor,
  limit: number,
  random: () => number = Math.random,
): Descriptor[] {
  const others = visible.filter((d) => d.id !== current.id && d.word !== current.word)
  for (let i = others.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const a = others[i]
    const b = others[j]
    if (a === undefined || b === undefined) continue
    others[i] = b
    others[j] = a
  }
  return others.slice(0, limit)
}

/**
 * A random visible word of the requested categories and stages, drawn on the device (offline):
 * never the excluded one unless it is the only one, each word once however many of its
 * categories are chosen.
 */
export function drawLocally(
  request: RandomDescriptorRequest,
  categories: readonly Category[],
  words: ReadonlyMap<string, CategoryWords>,
  random: () => number = Math.random,
): Descriptor | null {
  const wanted = new Set([
    ...request.gestaltIds.map((id) => categoryKey('gestalt', id)),
    ...request.perceptionIds.map((id) => categoryKey('perception', id)),
  ])
  const pool = new Map<number, Descriptor>()
  for (const category of categories) {
    if (!wanted.has(category.key) || !request.stages.includes(category.stage)) continue
    for (const d of words.get(category.key)?.visible ?? []) pool.set(d.id, d)
  }
  const all = [...pool.values()]
  const others = all.filter((d) => d.id !== request.excludeId)
  const choices = others.length > 0 ? others : all
  return choices[Math.floor(random() * choices.length)] ?? null
}
