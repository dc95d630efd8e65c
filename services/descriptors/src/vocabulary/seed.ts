// The shipped vocabulary loaded into the database, in one transaction.
import type { Database } from '@crv/kit/db'
import {
  clearShippedMemberships,
  insertMemberships,
  lockSeed,
  saveSeededHash,
  seededHash,
  upsertCategory,
  upsertCategoryName,
  upsertConcepts,
  upsertWords,
} from './repository.ts'
import type { Vocabulary } from './shipped.ts'

export interface SeedReport {
  skipped: boolean
  categories: number
  concepts: number
  descriptors: number
  changed: number
}

const chunks = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) =>
    list.slice(i * size, i * size + size),
  )

/**
 * Loads the shipped vocabulary; idempotent. Categories and concepts are matched by their ids
 * in the data files (a concept's further categories are replaced by the files' list),
 * descriptors by (concept, language): a corrected word is updated in place,
 * so users' hides and the ids clients hold survive. Nothing users created is touched. With
 * `force` false, a database already seeded from the same data files is left alone.
 */
export async function seedVocabulary(
  db: Database,
  vocabulary: Vocabulary,
  force = false,
): Promise<SeedReport> {
  return db.transaction(async (tx) => {
    await lockSeed(tx)
    if (!force && (await seededHash(tx)) === vocabulary.hash) {
      return { skipped: true, categories: 0, concepts: 0, descriptors: 0, changed: 0 }
    }
    const categoryIds = new Map<string, number>()
    for (const c of vocabulary.categories) {
      const id = await upsertCategory(tx, c)
      if (id === undefined) throw new Error(`category ${c.slug} not stored`)
      categoryIds.set(c.slug, id)
      for (const [language, names] of Object.entries(c.names)) {
        await upsertCategoryName(tx, id, language, names)
      }
    }
    const conceptIds = new Map<string, number>()
    for (const batch of chunks(vocabulary.concepts, 200)) {
      const stored = await upsertConcepts(
        tx,
        batch.map((c) => ({
          slug: c.slug,
          categoryId: categoryIds.get(c.category) ?? null,
          pos: c.pos,
        })),
      )
      for (const row of stored) conceptIds.set(row.slug, row.id)
    }
    // The further categories of shipped words, as the data files list them now.
    await clearShippedMemberships(tx)
    const memberships = vocabulary.concepts.flatMap((c) =>
      c.also.map((slug) => ({
        conceptId: conceptIds.get(c.slug) ?? null,
        categoryId: categoryIds.get(slug) ?? null,
      })),
    )
    for (const batch of chunks(memberships, 300)) await insertMemberships(tx, batch)
    const words = vocabulary.concepts.flatMap((c) =>
      Object.entries(c.words).map(([language, w]) => ({
        conceptId: conceptIds.get(c.slug) ?? null,
        categoryId: categoryIds.get(c.category) ?? null,
        language,
        word: w.word,
        reading: w.reading ?? null,
      })),
    )
    let descriptors = 0
    let changed = 0
    for (const batch of chunks(words, 300)) {
      const stored = await upsertWords(tx, batch)
      descriptors += stored.filter((r) => r.inserted).length
      changed += stored.filter((r) => !r.inserted).length
    }
    await saveSeededHash(tx, vocabulary.hash)
    return {
      skipped: false,
      categories: categoryIds.size,
      concepts: conceptIds.size,
      descriptors,
      changed,
    }
  })
}
