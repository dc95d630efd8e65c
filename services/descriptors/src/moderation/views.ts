import { toCsv } from '@crv/kit'
import type { components } from '@crv/contracts'
import { fromPostgresTimestamp } from '@crv/kit/db'
import type { ActionRow, ExportRow } from './repository.ts'

type Schemas = components['schemas']

export const exportRowOf = (r: ExportRow): Schemas['DescriptorExportRow'] => ({
  id: Number(r.id),
  conceptId: Number(r.concept_id),
  word: r.word,
  language: r.language,
  status: r.status,
  type: r.type,
  stage: r.stage,
  category: r.category,
  createdBy: r.created_by,
  createdAt: fromPostgresTimestamp(r.created_at).toISOString(),
})

export const actionOf = (r: ActionRow): Schemas['AdminAction'] => ({
  action: r.action as Schemas['AdminAction']['action'],
  userId: r.user_id,
  summary: r.summary,
  at: fromPostgresTimestamp(r.at).toISOString(),
})

/** The full export as CSV (the contract's column order). */
export const exportCsv = (descriptors: Schemas['DescriptorExportRow'][]): string =>
  toCsv(
    [
      'ID',
      'Concept',
      'Word',
      'Language',
      'Status',
      'Type',
      'Stage',
      'Category',
      'Created By',
      'Created At',
    ],
    descriptors.map((d) => [
      String(d.id),
      String(d.conceptId),
      d.word,
      d.language,
      d.status,
      d.type,
      d.stage,
      d.category,
      d.createdBy ?? '',
      d.createdAt,
    ]),
  )
