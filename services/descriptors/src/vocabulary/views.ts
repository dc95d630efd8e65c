import { toCsv } from '@crv/kit'
import type { components } from '@crv/contracts'
import { fromPostgresTimestamp } from '@crv/kit/db'
import type { Language, Stage } from './shipped.ts'

export type ApiDescriptor = components['schemas']['Descriptor']
export type ApiCategory = components['schemas']['Gestalt']

export interface DescriptorRow {
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

/** A caller's words as CSV, with their categories' names (the contract's columns). */
export const userWordsCsv = (mine: Descriptor[], names: Map<number, string>): string =>
  toCsv(
    ['ID', 'Word', 'Language', 'Status', 'Gestalt Name', 'Perception Name'],
    mine.map(({ api }) => [
      String(api.id),
      api.word,
      api.language,
      api.status,
      api.gestaltId ? (names.get(api.gestaltId) ?? '') : '',
      api.perceptionId ? (names.get(api.perceptionId) ?? '') : '',
    ]),
  )
