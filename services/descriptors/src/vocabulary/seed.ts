import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import { foldWord } from './shipped.ts'
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
    const rowsOf = <T>(query: SQL) => rows<T>(tx, query)
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('descriptors:seed'))`)
    const [state] = await rowsOf<{ data_hash: string }>(
      sql`SELECT data_hash FROM descriptors.seed_state WHERE id = 1`,
    )
    if (!force && state?.data_hash === vocabulary.hash) {
      return { skipped: true, categories: 0, concepts: 0, descriptors: 0, changed: 0 }
    }
    const categoryIds = new Map<string, number>()
    for (const c of vocabulary.categories) {
      const [row] = await rowsOf<{ id: number }>(sql`
        INSERT INTO descriptors.categories (slug, type, stage, position) VALUES (${c.slug}, ${c.type}, ${c.stage}, ${c.position})
        ON CONFLICT (slug) DO UPDATE SET type = EXCLUDED.type, stage = EXCLUDED.stage, position = EXCLUDED.position
        RETURNING id`)
      if (!row) throw new Error(`category ${c.slug} not stored`)
      categoryIds.set(c.slug, row.id)
      for (const [language, names] of Object.entries(c.names)) {
        await tx.execute(sql`
          INSERT INTO descriptors.category_names (category_id, language, name, description)
          VALUES (${row.id}, ${language}, ${names.name}, ${names.description})
          ON CONFLICT (category_id, language) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description`)
      }
    }
    const conceptIds = new Map<string, number>()
    for (const batch of chunks(vocabulary.concepts, 200)) {
      const values = batch.map(
        (c) => sql`(${c.slug}, ${categoryIds.get(c.category) ?? null}, ${c.pos})`,
      )
      const stored = await rowsOf<{ id: number; slug: string }>(sql`
        INSERT INTO descriptors.concepts (slug, category_id, pos) VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (slug) DO UPDATE SET category_id = EXCLUDED.category_id, pos = EXCLUDED.pos
        RETURNING id, slug`)
      for (const row of stored) conceptIds.set(row.slug, row.id)
    }
    // The further categories of shipped words, as the data files list them now.
    await tx.execute(sql`
      DELETE FROM descriptors.concept_categories cc USING descriptors.concepts c
      WHERE c.id = cc.concept_id AND c.slug IS NOT NULL`)
    const memberships = vocabulary.concepts.flatMap((c) =>
      c.also.map(
        (slug) => sql`(${conceptIds.get(c.slug) ?? null}, ${categoryIds.get(slug) ?? null})`,
      ),
    )
    for (const batch of chunks(memberships, 300)) {
      await tx.execute(sql`
        INSERT INTO descriptors.concept_categories (concept_id, category_id)
        VALUES ${sql.join(batch, sql`, `)}`)
    }
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
      const values = batch.map(
        (r) =>
          sql`(${r.conceptId}, ${r.categoryId}, ${r.language}, ${r.word}, ${r.reading}, ${foldWord(r.word)}, 'system', false)`,
      )
      const stored = await rowsOf<{ inserted: boolean }>(sql`
        INSERT INTO descriptors.descriptors (concept_id, category_id, language, word, reading, word_key, status, is_custom)
        VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (concept_id, language) WHERE NOT is_custom DO UPDATE
          SET word = EXCLUDED.word, reading = EXCLUDED.reading, word_key = EXCLUDED.word_key, category_id = EXCLUDED.category_id
          WHERE descriptors.descriptors.word IS DISTINCT FROM EXCLUDED.word
             OR descriptors.descriptors.reading IS DISTINCT FROM EXCLUDED.reading
             OR descriptors.descriptors.category_id IS DISTINCT FROM EXCLUDED.category_id
        RETURNING (xmax = 0) AS inserted`)
      descriptors += stored.filter((r) => r.inserted).length
      changed += stored.filter((r) => !r.inserted).length
    }
    await tx.execute(sql`
      INSERT INTO descriptors.seed_state (id, data_hash) VALUES (1, ${vocabulary.hash})
      ON CONFLICT (id) DO UPDATE SET data_hash = EXCLUDED.data_hash, seeded_at = now()`)
    return {
      skipped: false,
      categories: categoryIds.size,
      concepts: conceptIds.size,
      descriptors,
      changed,
    }
  })
}
