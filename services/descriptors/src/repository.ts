import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { Language, Stage } from './vocabulary.ts'
import { fromPostgresTimestamp } from './timestamps.ts'

export type ApiDescriptor = components['schemas']['Descriptor']
export type ApiCategory = components['schemas']['Gestalt']

interface DescriptorRow {
  id: string | number
  word: string
  language: Language
  category_id: number
  category_type: 'gestalt' | 'perception'
  stage: Stage
  created_by: string | null
  is_custom: boolean
  status: 'system' | 'approved' | 'pending'
  created_at: Date | string
  hidden?: boolean
  also?: { id: number; type: 'gestalt' | 'perception'; stage: Stage }[] | null
}

/** A category a word stands in, with that category's stage. */
export interface Membership {
  categoryId: number
  stage: Stage
  categoryType: 'gestalt' | 'perception'
}

/** A word as the trainer serves it: its first category, and the further ones of `also`. */
export interface Descriptor extends Membership {
  api: ApiDescriptor
  also: Membership[]
}

/** Every category a word stands in, its first one first. */
export const membershipsOf = (d: Descriptor): Membership[] =>
  d.also.length === 0 ? [d] : [d, ...d.also]

const SELECT = sql`
  SELECT d.id, d.word, d.language, d.category_id, c.type AS category_type, c.stage, d.created_by,
         d.is_custom, d.status, d.created_at,
         (SELECT json_agg(json_build_object('id', o.id, 'type', o.type, 'stage', o.stage)
                          ORDER BY o.stage, o.position)
            FROM descriptors.concept_categories cc
            JOIN descriptors.categories o ON o.id = cc.category_id
           WHERE cc.concept_id = d.concept_id) AS also
  FROM descriptors.descriptors d JOIN descriptors.categories c ON c.id = d.category_id`

export function toDescriptor(row: DescriptorRow, hidden = false): Descriptor {
  const id = Number(row.id)
  const also = (row.also ?? []).map((o) => ({
    categoryId: o.id,
    stage: o.stage,
    categoryType: o.type,
  }))
  return {
    api: {
      id,
      word: row.word,
      language: row.language,
      gestaltId: row.category_type === 'gestalt' ? row.category_id : null,
      perceptionId: row.category_type === 'perception' ? row.category_id : null,
      createdBy: row.created_by,
      isCustom: row.is_custom,
      status: row.status,
      hidden: hidden || row.hidden === true,
      createdAt: fromPostgresTimestamp(row.created_at).toISOString(),
      ...(also.length > 0
        ? { alsoIn: also.map((o) => ({ type: o.categoryType, id: o.categoryId })) }
        : {}),
    },
    categoryId: row.category_id,
    stage: row.stage,
    categoryType: row.category_type,
    also,
  }
}

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
