// Every statement of the vocabulary area: categories, descriptors (shared and users' own) and
// hides, and the seed of the shipped vocabulary.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'
import { foldWord } from './shipped.ts'
import type { CategoryData, Language, Stage } from './shipped.ts'
import { toDescriptor } from './views.ts'
import type { ApiCategory, Descriptor, DescriptorRow } from './views.ts'

const SELECT = sql`
  SELECT d.id, d.word, d.language, d.category_id, c.type AS category_type, c.stage, d.created_by,
         d.is_custom, d.status, d.created_at,
         (SELECT json_agg(json_build_object('id', o.id, 'type', o.type, 'stage', o.stage)
                          ORDER BY o.stage, o.position)
            FROM descriptors.concept_categories cc
            JOIN descriptors.categories o ON o.id = cc.category_id
           WHERE cc.concept_id = d.concept_id) AS also
  FROM descriptors.descriptors d JOIN descriptors.categories c ON c.id = d.category_id`

export async function listCategories(
  db: Database,
  type: 'gestalt' | 'perception',
  language: Language,
): Promise<ApiCategory[]> {
  return rows<ApiCategory>(
    db,
    sql`SELECT c.id, COALESCE(n.name, en.name) AS name, c.stage
        FROM descriptors.categories c
        JOIN descriptors.category_names en ON en.category_id = c.id AND en.language = 'en'
        LEFT JOIN descriptors.category_names n ON n.category_id = c.id AND n.language = ${language}
        WHERE c.type = ${type}
        ORDER BY c.stage, c.position`,
  )
}

export async function findCategory(db: Database, id: number) {
  const [row] = await rows<{ id: number; type: 'gestalt' | 'perception'; stage: Stage }>(
    db,
    sql`SELECT id, type, stage FROM descriptors.categories WHERE id = ${id}`,
  )
  return row ?? null
}

/** System and approved descriptors of a language (the shared part of everyone's view). */
export async function sharedDescriptors(db: Database, language: Language): Promise<Descriptor[]> {
  const list = await rows<DescriptorRow>(
    db,
    // Words the community added (approved by an administrator) lead, newest first; then the
    // shipped vocabulary in category order.
    sql`${SELECT} WHERE d.language = ${language} AND d.status IN ('system', 'approved')
        ORDER BY d.status = 'approved' DESC,
                 CASE WHEN d.status = 'approved' THEN d.created_at END DESC, c.position, d.id`,
  )
  return list.map((r) => toDescriptor(r))
}

export async function customDescriptorsOf(
  db: Database,
  userId: string,
  language?: Language,
): Promise<Descriptor[]> {
  const list = await rows<DescriptorRow>(
    db,
    sql`${SELECT} WHERE d.is_custom AND d.created_by = ${userId}
        ${language ? sql`AND d.language = ${language}` : sql``}
        ORDER BY d.created_at DESC, d.id DESC`,
  )
  return list.map((r) => toDescriptor(r))
}

/**
 * A signed-in caller's part of the trainer in one round trip: their own words in a language
 * and the ids they hid.
 */
export async function userStateOf(
  db: Database,
  userId: string,
  language: Language,
): Promise<{ custom: Descriptor[]; hidden: Set<number> }> {
  const [row] = await rows<{ custom: DescriptorRow[] | null; hidden: (string | number)[] | null }>(
    db,
    sql`SELECT
          (SELECT json_agg(x) FROM (${SELECT} WHERE d.is_custom AND d.created_by = ${userId}
             AND d.language = ${language} ORDER BY d.created_at DESC, d.id DESC) x) AS custom,
          (SELECT array_agg(descriptor_id) FROM descriptors.hidden WHERE user_id = ${userId}) AS hidden`,
  )
  return {
    custom: (row?.custom ?? []).map((r) => toDescriptor(r)),
    hidden: new Set((row?.hidden ?? []).map(Number)),
  }
}

export async function findDescriptor(db: Database, id: number): Promise<Descriptor | null> {
  const [row] = await rows<DescriptorRow>(db, sql`${SELECT} WHERE d.id = ${id}`)
  return row ? toDescriptor(row) : null
}

/** Users' submissions awaiting review, in every language, oldest first. */
export async function pendingDescriptors(db: Database): Promise<Descriptor[]> {
  const list = await rows<DescriptorRow>(
    db,
    sql`${SELECT} WHERE d.status = 'pending' ORDER BY d.created_at, d.id`,
  )
  return list.map((r) => toDescriptor(r))
}

/** A shared word (shipped or approved) of this key in the category, in any of its categories. */
export async function sharedWordIn(
  db: Executor,
  categoryId: number,
  language: Language,
  wordKey: string,
): Promise<{ word: string } | undefined> {
  const [existing] = await rows<{ word: string }>(
    db,
    sql`
        SELECT word FROM descriptors.descriptors
        WHERE (category_id = ${categoryId} OR concept_id IN (
                 SELECT concept_id FROM descriptors.concept_categories WHERE category_id = ${categoryId}))
          AND language = ${language}
          AND word_key = ${wordKey} AND (NOT is_custom OR status = 'approved')
        LIMIT 1`,
  )
  return existing
}

/** A concept of its own for a user's word; its id. */
export async function insertConcept(db: Executor, categoryId: number): Promise<number | undefined> {
  const [concept] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO descriptors.concepts (category_id, pos) VALUES (${categoryId}, 'noun') RETURNING id`,
  )
  return concept?.id
}

/** A user's word, pending; its id. */
export async function insertCustomWord(
  db: Executor,
  w: {
    conceptId: number | undefined
    categoryId: number
    language: Language
    word: string
    wordKey: string
    userId: string
  },
): Promise<number> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`
              INSERT INTO descriptors.descriptors (concept_id, category_id, language, word, word_key, status, created_by, is_custom)
              VALUES (${w.conceptId}, ${w.categoryId}, ${w.language}, ${w.word}, ${w.wordKey}, 'pending', ${w.userId}, true)
              RETURNING id`,
  )
  return Number(row?.id)
}

/** A word, and its concept when that was its own (a user's word). */
export async function deleteWordAndConcept(db: Executor, id: number): Promise<void> {
  await db.execute(sql`
      WITH gone AS (DELETE FROM descriptors.descriptors WHERE id = ${id} RETURNING concept_id)
      DELETE FROM descriptors.concepts c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`)
}

/** Shows a hidden word again; whether it was hidden. */
export async function unhide(db: Executor, userId: string, id: number): Promise<boolean> {
  const removed = await db.execute(
    sql`DELETE FROM descriptors.hidden WHERE user_id = ${userId} AND descriptor_id = ${id} RETURNING 1`,
  )
  return (removed.rowCount ?? 0) > 0
}

export async function hide(db: Executor, userId: string, id: number): Promise<void> {
  await db.execute(
    sql`INSERT INTO descriptors.hidden (user_id, descriptor_id) VALUES (${userId}, ${id}) ON CONFLICT DO NOTHING`,
  )
}

/** Each category's name in a language, English where it has none. */
export async function categoryNames(
  db: Executor,
  language: Language,
): Promise<Map<number, string>> {
  const list = await rows<{ id: number; name: string }>(
    db,
    sql`
        SELECT c.id, COALESCE(n.name, en.name) AS name FROM descriptors.categories c
        JOIN descriptors.category_names en ON en.category_id = c.id AND en.language = 'en'
        LEFT JOIN descriptors.category_names n ON n.category_id = c.id AND n.language = ${language}`,
  )
  return new Map(list.map((r) => [Number(r.id), String(r.name)]))
}

// The shipped vocabulary's seed (vocabulary/seed.ts holds its transaction).

/** One seed at a time, until the transaction ends. */
export async function lockSeed(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('descriptors:seed'))`)
}

/** The hash of the data files the last seed read, if any. */
export async function seededHash(tx: Executor): Promise<string | undefined> {
  const [state] = await rows<{ data_hash: string }>(
    tx,
    sql`SELECT data_hash FROM descriptors.seed_state WHERE id = 1`,
  )
  return state?.data_hash
}

/** A shipped category by its slug; its id. */
export async function upsertCategory(tx: Executor, c: CategoryData): Promise<number | undefined> {
  const [row] = await rows<{ id: number }>(
    tx,
    sql`
        INSERT INTO descriptors.categories (slug, type, stage, position) VALUES (${c.slug}, ${c.type}, ${c.stage}, ${c.position})
        ON CONFLICT (slug) DO UPDATE SET type = EXCLUDED.type, stage = EXCLUDED.stage, position = EXCLUDED.position
        RETURNING id`,
  )
  return row?.id
}

export async function upsertCategoryName(
  tx: Executor,
  categoryId: number,
  language: string,
  names: { name: string; description: string },
): Promise<void> {
  await tx.execute(sql`
          INSERT INTO descriptors.category_names (category_id, language, name, description)
          VALUES (${categoryId}, ${language}, ${names.name}, ${names.description})
          ON CONFLICT (category_id, language) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description`)
}

/** Shipped concepts by their slugs; their ids. */
export async function upsertConcepts(
  tx: Executor,
  concepts: { slug: string; categoryId: number | null; pos: string }[],
): Promise<{ id: number; slug: string }[]> {
  const values = concepts.map((c) => sql`(${c.slug}, ${c.categoryId}, ${c.pos})`)
  return rows<{ id: number; slug: string }>(
    tx,
    sql`
        INSERT INTO descriptors.concepts (slug, category_id, pos) VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (slug) DO UPDATE SET category_id = EXCLUDED.category_id, pos = EXCLUDED.pos
        RETURNING id, slug`,
  )
}

/** The further categories of shipped words (users' words have none). */
export async function clearShippedMemberships(tx: Executor): Promise<void> {
  await tx.execute(sql`
      DELETE FROM descriptors.concept_categories cc USING descriptors.concepts c
      WHERE c.id = cc.concept_id AND c.slug IS NOT NULL`)
}

export async function insertMemberships(
  tx: Executor,
  memberships: { conceptId: number | null; categoryId: number | null }[],
): Promise<void> {
  const values = memberships.map((m) => sql`(${m.conceptId}, ${m.categoryId})`)
  await tx.execute(sql`
        INSERT INTO descriptors.concept_categories (concept_id, category_id)
        VALUES ${sql.join(values, sql`, `)}`)
}

/**
 * Shipped words by (concept, language), a corrected one updated in place; for each row written,
 * whether it was new.
 */
export async function upsertWords(
  tx: Executor,
  words: {
    conceptId: number | null
    categoryId: number | null
    language: string
    word: string
    reading: string | null
  }[],
): Promise<{ inserted: boolean }[]> {
  const values = words.map(
    (r) =>
      sql`(${r.conceptId}, ${r.categoryId}, ${r.language}, ${r.word}, ${r.reading}, ${foldWord(r.word)}, 'system', false)`,
  )
  return rows<{ inserted: boolean }>(
    tx,
    sql`
        INSERT INTO descriptors.descriptors (concept_id, category_id, language, word, reading, word_key, status, is_custom)
        VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (concept_id, language) WHERE NOT is_custom DO UPDATE
          SET word = EXCLUDED.word, reading = EXCLUDED.reading, word_key = EXCLUDED.word_key, category_id = EXCLUDED.category_id
          WHERE descriptors.descriptors.word IS DISTINCT FROM EXCLUDED.word
             OR descriptors.descriptors.reading IS DISTINCT FROM EXCLUDED.reading
             OR descriptors.descriptors.category_id IS DISTINCT FROM EXCLUDED.category_id
        RETURNING (xmax = 0) AS inserted`,
  )
}

export async function saveSeededHash(tx: Executor, hash: string): Promise<void> {
  await tx.execute(sql`
      INSERT INTO descriptors.seed_state (id, data_hash) VALUES (1, ${hash})
      ON CONFLICT (id) DO UPDATE SET data_hash = EXCLUDED.data_hash, seeded_at = now()`)
}
