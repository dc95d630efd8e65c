// Every statement of moderation: every descriptor at once, the audit log, the tables' figures.
import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'
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
  db: Database,
  query: AdminListQuery,
): Promise<{ descriptors: Descriptor[]; total: number }> {
  const filters: SQL[] = []
  const folded = query.search ? foldWord(query.search) : ''
  if (folded) filters.push(sql`d.word_key LIKE ${`%${likeLiteral(folded)}%`}`)
  if (query.status && query.status !== 'all') filters.push(sql`d.status = ${query.status}`)
  if (query.language && query.language !== 'all') filters.push(sql`d.language = ${query.language}`)
  const where = filters.length > 0 ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``
  const offset = (query.page - 1) * query.limit
  const [list, [count]] = await Promise.all([
    rows<Parameters<typeof toDescriptor>[0]>(
      db,
      sql`SELECT d.id, d.word, d.language, d.category_id, c.type AS category_type, c.stage,
                 d.created_by, d.is_custom, d.status, d.created_at
          FROM descriptors.descriptors d JOIN descriptors.categories c ON c.id = d.category_id
          ${where}
          ORDER BY d.created_at DESC, d.id DESC
          LIMIT ${query.limit} OFFSET ${offset}`,
    ),
    rows<{ total: string | number }>(
      db,
      sql`SELECT count(*) AS total FROM descriptors.descriptors d ${where}`,
    ),
  ])
  return { descriptors: list.map((r) => toDescriptor(r)), total: Number(count?.total ?? 0) }
}

/**
 * Deletes the descriptors of the concepts of the given descriptors in every language (every
 * user's hides of those words cascade); the concepts and languages they stood in.
 */
export async function deleteWordsOfConcepts(
  db: Executor,
  descriptorIds: number[],
): Promise<{ concept_id: number; language: Language }[]> {
  const ids = sql`ARRAY[${sql.join(
    descriptorIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::bigint[]`
  return rows<{ concept_id: number; language: Language }>(
    db,
    sql`DELETE FROM descriptors.descriptors
        WHERE concept_id IN (SELECT concept_id FROM descriptors.descriptors WHERE id = ANY(${ids}))
        RETURNING concept_id, language`,
  )
}

export async function deleteConceptRows(db: Executor, concepts: number[]): Promise<void> {
  await db.execute(
    sql`DELETE FROM descriptors.concepts WHERE id = ANY(ARRAY[${sql.join(
      concepts.map((id) => sql`${id}`),
      sql`, `,
    )}]::integer[])`,
  )
}

/** A pending word approved into the shared vocabulary. */
export async function approve(db: Executor, id: number): Promise<void> {
  await db.execute(sql`UPDATE descriptors.descriptors SET status = 'approved' WHERE id = ${id}`)
}

/** A pending word refused. */
export async function deleteWord(db: Executor, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM descriptors.descriptors WHERE id = ${id}`)
}

/** Descriptor counts by stage, status and language: the Descriptors tab's figures. */
export async function descriptorCounts(db: Database) {
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
export async function tableStats(db: Database): Promise<Schemas['TableStats'][]> {
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

export async function databaseSize(db: Database): Promise<number> {
  const [row] = await rows<{ bytes: string }>(
    db,
    sql`SELECT pg_database_size(current_database()) AS bytes`,
  )
  return Number(row?.bytes ?? 0)
}

/** Every table of the app's schemas, VACUUM ANALYZEd one by one (outside any transaction). */
export async function optimizeTables(db: Database): Promise<{ schemas: string[]; tables: number }> {
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
    await db.execute(sql.raw(`VACUUM (ANALYZE) ${quoted(t.schema)}.${quoted(t.table)}`))
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
export async function exportRows(db: Database): Promise<ExportRow[]> {
  return rows<ExportRow>(
    db,
    sql`SELECT d.id, d.concept_id, d.word, d.language, d.status, c.type, c.stage,
               COALESCE(n.name, c.slug) AS category, d.created_by, d.created_at
        FROM descriptors.descriptors d
        JOIN descriptors.categories c ON c.id = d.category_id
        LEFT JOIN descriptors.category_names n ON n.category_id = c.id AND n.language = 'en'
        ORDER BY d.id`,
  )
}

export async function logAction(
  db: Database,
  action: Schemas['AdminAction']['action'],
  userId: string,
  summary: string,
): Promise<void> {
  await db.execute(
    sql`INSERT INTO descriptors.admin_actions (action, user_id, summary) VALUES (${action}, ${userId}, ${summary.slice(0, 500)})`,
  )
}

export interface ActionRow {
  action: string
  user_id: string
  summary: string
  at: Date | string
}

export async function recentActions(db: Database, limit = 10): Promise<ActionRow[]> {
  return rows<ActionRow>(
    db,
    sql`SELECT action, user_id, summary, at FROM descriptors.admin_actions ORDER BY at DESC, id DESC LIMIT ${limit}`,
  )
}
