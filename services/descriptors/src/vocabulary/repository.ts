// Every statement of the vocabulary area: categories, descriptors (shared and users' own) and
// hides. The seed of the shipped vocabulary is in seed.ts.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'
import type { Language, Stage } from './shipped.ts'
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
