// Every statement of the vocabulary area: categories, descriptors (shared and users' own) and
// hides, and the seed of the shipped vocabulary.
import { and, eq, inArray, isNotNull, not, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { rows } from '@crv/kit/db'
import {
  categories,
  categoryNames as categoryNameRows,
  conceptCategories,
  concepts,
  descriptors,
  hidden,
  seedState,
} from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import { foldWord } from './shipped.ts'
import type { CategoryData, Language } from './shipped.ts'
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

/** A category's name in a language, English where it has none (joined as `en` and `n`). */
function namesIn() {
  const en = alias(categoryNameRows, 'en')
  const named = alias(categoryNameRows, 'n')
  return { en, named, name: sql<string>`COALESCE(${named.name}, ${en.name})` }
}

export async function listCategories(
  db: Queryable,
  type: 'gestalt' | 'perception',
  language: Language,
): Promise<ApiCategory[]> {
  const { en, named, name } = namesIn()
  return db
    .select({ id: categories.id, name, stage: categories.stage })
    .from(categories)
    .innerJoin(en, and(eq(en.categoryId, categories.id), eq(en.language, 'en')))
    .leftJoin(named, and(eq(named.categoryId, categories.id), eq(named.language, language)))
    .where(eq(categories.type, type))
    .orderBy(categories.stage, categories.position)
}

export async function findCategory(db: Queryable, id: number) {
  const [row] = await db
    .select({ id: categories.id, type: categories.type, stage: categories.stage })
    .from(categories)
    .where(eq(categories.id, id))
  return row ?? null
}

/** System and approved descriptors of a language (the shared part of everyone's view). */
export async function sharedDescriptors(db: Queryable, language: Language): Promise<Descriptor[]> {
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
  db: Queryable,
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
  db: Queryable,
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

export async function findDescriptor(db: Queryable, id: number): Promise<Descriptor | null> {
  const [row] = await rows<DescriptorRow>(db, sql`${SELECT} WHERE d.id = ${id}`)
  return row ? toDescriptor(row) : null
}

/** Users' submissions awaiting review, in every language, oldest first. */
export async function pendingDescriptors(db: Queryable): Promise<Descriptor[]> {
  const list = await rows<DescriptorRow>(
    db,
    sql`${SELECT} WHERE d.status = 'pending' ORDER BY d.created_at, d.id`,
  )
  return list.map((r) => toDescriptor(r))
}

/** A shared word (shipped or approved) of this key in the category, in any of its categories. */
export async function sharedWordIn(
  db: Queryable,
  categoryId: number,
  language: Language,
  wordKey: string,
): Promise<{ word: string } | undefined> {
  const [existing] = await db
    .select({ word: descriptors.word })
    .from(descriptors)
    .where(
      and(
        or(
          eq(descriptors.categoryId, categoryId),
          inArray(
            descriptors.conceptId,
            db
              .select({ conceptId: conceptCategories.conceptId })
              .from(conceptCategories)
              .where(eq(conceptCategories.categoryId, categoryId)),
          ),
        ),
        eq(descriptors.language, language),
        eq(descriptors.wordKey, wordKey),
        or(not(descriptors.isCustom), eq(descriptors.status, 'approved')),
      ),
    )
    .limit(1)
  return existing
}

/** A concept of its own for a user's word; its id. */
export async function insertConcept(
  db: Queryable,
  categoryId: number,
): Promise<number | undefined> {
  const [concept] = await db
    .insert(concepts)
    .values({ categoryId, pos: 'noun' })
    .returning({ id: concepts.id })
  return concept?.id
}

/** A user's word, pending; its id. */
export async function insertCustomWord(
  db: Queryable,
  w: {
    conceptId: number | undefined
    categoryId: number
    language: Language
    word: string
    wordKey: string
    userId: string
  },
): Promise<number> {
  const [row] = await db
    .insert(descriptors)
    .values({
      // Without a concept the table refuses the word (concept_id is NOT NULL), as it always did.
      conceptId: w.conceptId ?? sql`NULL`,
      categoryId: w.categoryId,
      language: w.language,
      word: w.word,
      wordKey: w.wordKey,
      status: 'pending',
      createdBy: w.userId,
      isCustom: true,
    })
    .returning({ id: descriptors.id })
  return Number(row?.id)
}

/** A word, and its concept when that was its own (a user's word). */
export async function deleteWordAndConcept(db: Queryable, id: number): Promise<void> {
  await rows(
    db,
    sql`
      WITH gone AS (DELETE FROM ${descriptors} WHERE id = ${id} RETURNING concept_id)
      DELETE FROM ${concepts} c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`,
  )
}

/** Shows a hidden word again; whether it was hidden. */
export async function unhide(db: Queryable, userId: string, id: number): Promise<boolean> {
  const removed = await db
    .delete(hidden)
    .where(and(eq(hidden.userId, userId), eq(hidden.descriptorId, id)))
    .returning({ id: hidden.descriptorId })
  return removed.length > 0
}

export async function hide(db: Queryable, userId: string, id: number): Promise<void> {
  await db.insert(hidden).values({ userId, descriptorId: id }).onConflictDoNothing()
}

/** Each category's name in a language, English where it has none. */
export async function categoryNames(
  db: Queryable,
  language: Language,
): Promise<Map<number, string>> {
  const { en, named, name } = namesIn()
  const list = await db
    .select({ id: categories.id, name })
    .from(categories)
    .innerJoin(en, and(eq(en.categoryId, categories.id), eq(en.language, 'en')))
    .leftJoin(named, and(eq(named.categoryId, categories.id), eq(named.language, language)))
  return new Map(list.map((r) => [Number(r.id), String(r.name)]))
}

// The shipped vocabulary's seed (vocabulary/seed.ts holds its transaction).

/** One seed at a time, until the transaction ends. */
export async function lockSeed(tx: Queryable): Promise<void> {
  await rows(tx, sql`SELECT pg_advisory_xact_lock(hashtext('descriptors:seed'))`)
}

/** The hash of the data files the last seed read, if any. */
export async function seededHash(tx: Queryable): Promise<string | undefined> {
  const [state] = await tx
    .select({ dataHash: seedState.dataHash })
    .from(seedState)
    .where(eq(seedState.id, 1))
  return state?.dataHash
}

/** A shipped category by its slug; its id. */
export async function upsertCategory(tx: Queryable, c: CategoryData): Promise<number | undefined> {
  const set = { type: c.type, stage: c.stage, position: c.position }
  const [row] = await tx
    .insert(categories)
    .values({ slug: c.slug, ...set })
    .onConflictDoUpdate({ target: categories.slug, set })
    .returning({ id: categories.id })
  return row?.id
}

export async function upsertCategoryName(
  tx: Queryable,
  categoryId: number,
  language: string,
  names: { name: string; description: string },
): Promise<void> {
  const set = { name: names.name, description: names.description }
  await tx
    .insert(categoryNameRows)
    .values({ categoryId, language, ...set })
    .onConflictDoUpdate({ target: [categoryNameRows.categoryId, categoryNameRows.language], set })
}

/** Shipped concepts by their slugs; their ids. */
export async function upsertConcepts(
  tx: Queryable,
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
export async function clearShippedMemberships(tx: Queryable): Promise<void> {
  await tx
    .delete(conceptCategories)
    .where(
      inArray(
        conceptCategories.conceptId,
        tx.select({ id: concepts.id }).from(concepts).where(isNotNull(concepts.slug)),
      ),
    )
}

export async function insertMemberships(
  tx: Queryable,
  memberships: { conceptId: number | null; categoryId: number | null }[],
): Promise<void> {
  const values = memberships.map((m) => sql`(${m.conceptId}, ${m.categoryId})`)
  // Kept in SQL: the seed hands over ids it may not have found (null), which the table refuses.
  await rows(
    tx,
    sql`INSERT INTO ${conceptCategories} (concept_id, category_id) VALUES ${sql.join(values, sql`, `)}`,
  )
}

/**
 * Shipped words by (concept, language), a corrected one updated in place; for each row written,
 * whether it was new.
 */
export async function upsertWords(
  tx: Queryable,
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

export async function saveSeededHash(tx: Queryable, hash: string): Promise<void> {
  await tx
    .insert(seedState)
    .values({ id: 1, dataHash: hash })
    .onConflictDoUpdate({ target: seedState.id, set: { dataHash: hash, seededAt: sql`now()` } })
}
