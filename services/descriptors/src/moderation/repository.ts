// Every statement of moderation: every descriptor at once, the audit log, the tables' figures.
import { and, count, desc, eq, inArray, like, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { rows } from '@crv/kit/db'
import {
  adminActions,
  categories,
  categoryNames,
  concepts,
  descriptors,
  int8Text,
} from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import type { components } from '@crv/contracts'
import { foldWord } from '../vocabulary/shipped.ts'
import type { Language } from '../vocabulary/shipped.ts'
import { toDescriptor } from '../vocabulary/views.ts'
import type { Descriptor } from '../vocabulary/views.ts'

type Schemas = components['schemas']

export interface AdminListQuery {
  page: number
  limit: number
  search?: string
  status?: Schemas['DescriptorStatusFilter']
  language?: Schemas['LanguageFilter']
}

/** `%` and `_` in what the administrator typed are letters, not wildcards. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * One page of every descriptor, newest first. The search matches anywhere in the folded word
 * (`word_key`), so 'cafe' finds 'Café'; a trigram index serves it where pg_trgm exists.
 */
export async function listAllDescriptors(
  db: Queryable,
  query: AdminListQuery,
): Promise<{ descriptors: Descriptor[]; total: number }> {
  const filters: SQL[] = []
  const folded = query.search ? foldWord(query.search) : ''
  if (folded) filters.push(like(descriptors.wordKey, `%${likeLiteral(folded)}%`))
  if (query.status && query.status !== 'all') filters.push(eq(descriptors.status, query.status))
  if (query.language && query.language !== 'all')
    filters.push(eq(descriptors.language, query.language))
  const where = and(...filters)
  const offset = (query.page - 1) * query.limit
  const [list, [counted]] = await Promise.all([
    db
      .select({
        id: descriptors.id,
        word: descriptors.word,
        language: descriptors.language,
        category_id: descriptors.categoryId,
        category_type: categories.type,
        stage: categories.stage,
        created_by: descriptors.createdBy,
        is_custom: descriptors.isCustom,
        status: descriptors.status,
        created_at: descriptors.createdAt,
      })
      .from(descriptors)
      .innerJoin(categories, eq(categories.id, descriptors.categoryId))
      .where(where)
      .orderBy(desc(descriptors.createdAt), desc(descriptors.id))
      .limit(query.limit)
      .offset(offset),
    db.select({ total: count() }).from(descriptors).where(where),
  ])
  return { descriptors: list.map((r) => toDescriptor(r)), total: Number(counted?.total ?? 0) }
}

/**
 * Deletes the descriptors of the concepts of the given descriptors in every language (every
 * user's hides of those words cascade); the concepts and languages they stood in.
 */
export async function deleteWordsOfConcepts(
  db: Queryable,
  descriptorIds: number[],
): Promise<{ concept_id: number; language: Language }[]> {
  const words = alias(descriptors, 'w')
  return db
    .delete(descriptors)
    .where(
      inArray(
        descriptors.conceptId,
        db
          .select({ conceptId: words.conceptId })
          .from(words)
          .where(inArray(words.id, descriptorIds)),
      ),
    )
    .returning({ concept_id: descriptors.conceptId, language: descriptors.language })
}

export async function deleteConceptRows(db: Queryable, ids: number[]): Promise<void> {
  await db.delete(concepts).where(inArray(concepts.id, ids))
}

/** A pending word approved into the shared vocabulary. */
export async function approve(db: Queryable, id: number): Promise<void> {
  await db.update(descriptors).set({ status: 'approved' }).where(eq(descriptors.id, id))
}

/** A pending word refused. */
export async function deleteWord(db: Queryable, id: number): Promise<void> {
  await db.delete(descriptors).where(eq(descriptors.id, id))
}

/** Descriptor counts by stage, status and language: the Descriptors tab's figures. */
export async function descriptorCounts(db: Queryable) {
  const [byStage, byStatus, byLanguage, [totals]] = await Promise.all([
    rows<{ key: string; count: string }>(
      db,
      sql`SELECT c.stage AS key, count(*) AS count FROM descriptors.descriptors d
          JOIN descriptors.categories c ON c.id = d.category_id GROUP BY c.stage ORDER BY c.stage`,
    ),
    rows<{ key: string; count: string }>(
      db,
      sql`SELECT status AS key, count(*) AS count FROM descriptors.descriptors GROUP BY status ORDER BY status`,
    ),
    rows<{ key: string; count: string }>(
      db,
      sql`SELECT language AS key, count(*) AS count FROM descriptors.descriptors GROUP BY language ORDER BY language`,
    ),
    rows<{ total: string; concepts: string }>(
      db,
      sql`SELECT (SELECT count(*) FROM descriptors.descriptors) AS total,
                 (SELECT count(*) FROM descriptors.concepts) AS concepts`,
    ),
  ])
  const counts = (list: { key: string; count: string }[]) =>
    list.map((r) => ({ key: r.key, count: Number(r.count) }))
  return {
    total: Number(totals?.total ?? 0),
    concepts: Number(totals?.concepts ?? 0),
    byStage: counts(byStage),
    byStatus: counts(byStatus),
    byLanguage: counts(byLanguage),
  }
}

/** The schemas of the app's services (one per service that keeps data). */
export const APP_SCHEMAS = ['auth', 'descriptors', 'media'] as const

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * Exact row counts and sizes of every table of the app's schemas. Other services' schemas are
 * only counted here (read-only, table by table), never joined: docs/decisions.md.
 */
export async function tableStats(db: Queryable): Promise<Schemas['TableStats'][]> {
  const tables = await rows<{ schema: string; table: string; bytes: string }>(
    db,
    sql`SELECT n.nspname AS schema, c.relname AS table, pg_total_relation_size(c.oid) AS bytes
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname IN (${sql.join(
          APP_SCHEMAS.map((s) => sql`${s}`),
          sql`, `,
        )})
        ORDER BY n.nspname, c.relname`,
  )
  if (tables.length === 0) return []
  const counts = await rows<Record<string, string>>(
    db,
    sql.raw(
      `SELECT ${tables
        .map((t, i) => `(SELECT count(*) FROM ${quoted(t.schema)}.${quoted(t.table)}) AS "c${i}"`)
        .join(', ')}`,
    ),
  )
  const [row] = counts
  return tables.map((t, i) => ({
    schema: t.schema,
    table: t.table,
    rows: Number(row?.[`c${i}`] ?? 0),
    bytes: Number(t.bytes),
  }))
}

export async function databaseSize(db: Queryable): Promise<number> {
  const [row] = await rows<{ bytes: string }>(
    db,
    sql`SELECT pg_database_size(current_database()) AS bytes`,
  )
  return Number(row?.bytes ?? 0)
}

/** Every table of the app's schemas, VACUUM ANALYZEd one by one (outside any transaction). */
export async function optimizeTables(
  db: Queryable,
): Promise<{ schemas: string[]; tables: number }> {
  const tables = await rows<{ schema: string; table: string }>(
    db,
    sql`SELECT schemaname AS schema, relname AS table FROM pg_stat_user_tables
        WHERE schemaname IN (${sql.join(
          APP_SCHEMAS.map((s) => sql`${s}`),
          sql`, `,
        )})
        ORDER BY schemaname, relname`,
  )
  for (const t of tables) {
    await rows(db, sql.raw(`VACUUM (ANALYZE) ${quoted(t.schema)}.${quoted(t.table)}`))
  }
  return { schemas: [...new Set(tables.map((t) => t.schema))], tables: tables.length }
}

export interface ExportRow {
  id: string | number
  concept_id: number
  word: string
  language: Language
  status: Schemas['DescriptorStatus']
  type: 'gestalt' | 'perception'
  stage: Schemas['Stage']
  category: string
  created_by: string | null
  created_at: Date | string
}

/** Every descriptor with its category, for the full export. */
export async function exportRows(db: Queryable): Promise<ExportRow[]> {
  const en = alias(categoryNames, 'n')
  return db
    .select({
      id: int8Text(descriptors.id),
      concept_id: descriptors.conceptId,
      word: descriptors.word,
      language: descriptors.language,
      status: descriptors.status,
      type: categories.type,
      stage: categories.stage,
      category: sql<string>`COALESCE(${en.name}, ${categories.slug})`,
      created_by: descriptors.createdBy,
      created_at: descriptors.createdAt,
    })
    .from(descriptors)
    .innerJoin(categories, eq(categories.id, descriptors.categoryId))
    .leftJoin(en, and(eq(en.categoryId, categories.id), eq(en.language, 'en')))
    .orderBy(descriptors.id)
}

export async function logAction(
  db: Queryable,
  action: Schemas['AdminAction']['action'],
  userId: string,
  summary: string,
): Promise<void> {
  await db.insert(adminActions).values({ action, userId, summary: summary.slice(0, 500) })
}

export interface ActionRow {
  action: string
  user_id: string
  summary: string
  at: Date | string
}

export async function recentActions(db: Queryable, limit = 10): Promise<ActionRow[]> {
  return db
    .select({
      action: adminActions.action,
      user_id: adminActions.userId,
      summary: adminActions.summary,
      at: adminActions.at,
    })
    .from(adminActions)
    .orderBy(desc(adminActions.at), desc(adminActions.id))
    .limit(limit)
}
