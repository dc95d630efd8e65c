// Import manifests (issue [24] item 4): CSV or JSON, one row per target. Reading a manifest is
// pure: which fields each row has, as text, with the problems of the row's form. What the words
// mean (licences, tags, pictures) is checked by the import (target-import.ts).
import { parse } from 'csv-parse/sync'
import { AppError } from '@crv/kit'
import type { Reason } from './reasons.ts'

export const FIELDS = [
  'file',
  'title',
  'feedback',
  'licence',
  'source',
  'attribution',
  'tags',
  'frontloading',
] as const
export type Field = (typeof FIELDS)[number]

/** Other names collections give the same columns. */
const ALIASES: Record<string, Field> = {
  file: 'file',
  path: 'file',
  url: 'file',
  image: 'file',
  picture: 'file',
  title: 'title',
  feedback: 'feedback',
  description: 'feedback',
  licence: 'licence',
  license: 'licence',
  source: 'source',
  attribution: 'attribution',
  credit: 'attribution',
  tags: 'tags',
  frontloading: 'frontloading',
}

/** The most characters each field may have (the contract's limits for a target). */
export const MAX_LENGTH: Record<Exclude<Field, 'tags'>, number> = {
  file: 2000,
  title: 200,
  feedback: 2000,
  licence: 200,
  source: 500,
  attribution: 500,
  frontloading: 80,
}
export const MAX_TAGS = 50

/** At most this many rows per manifest (the report's limit). */
export const MAX_ROWS = 1000

export interface ManifestRow {
  /** The row's line in a CSV file, or its position (from 1) in a JSON one. */
  row: number
  text: Partial<Record<Exclude<Field, 'tags'>, string>>
  tags: string[]
  /** What is wrong with the row's form: missing, mistyped or too long fields. */
  reasons: Reason[]
}

export interface Manifest {
  rows: ManifestRow[]
  ignoredColumns: string[]
}

const unreadable = (why: string) =>
  new AppError('manifest_unreadable', 400, `The manifest cannot be read: ${why}`)

/** Reads a manifest: `.json` as JSON (an array, or an object with a `targets` array), else CSV. */
export function parseManifest(name: string, text: string): Manifest {
  const records = /\.json$/i.test(name.trim()) ? jsonRecords(text) : csvRecords(text)
  if (records.records.length === 0) throw unreadable('it has no rows')
  if (records.records.length > MAX_ROWS) {
    throw new AppError(
      'manifest_too_large',
      400,
      `The manifest has ${records.records.length} rows; at most ${MAX_ROWS} are imported at once. Split it.`,
    )
  }
  const ignored = new Set<string>()
  const rows = records.records.map(({ row, values }) => {
    const fields = new Map<Field, unknown>()
    for (const [key, value] of Object.entries(values)) {
      const field = ALIASES[key.trim().toLowerCase()]
      if (!field) ignored.add(key.trim())
      else if (!fields.has(field) || isBlank(fields.get(field))) fields.set(field, value)
    }
    return rowOf(row, fields)
  })
  return { rows, ignoredColumns: [...ignored].filter(Boolean).slice(0, 50) }
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

function rowOf(row: number, fields: Map<Field, unknown>): ManifestRow {
  const result: ManifestRow = { row, text: {}, tags: [], reasons: [] }
  for (const field of FIELDS) {
    const value = fields.get(field)
    if (field === 'tags') {
      const tags = tagsOf(value)
      if (tags === null) result.reasons.push(invalid('tags', 'a list of words or concept ids'))
      else if (tags.length > MAX_TAGS) result.reasons.push(tooLong('tags', MAX_TAGS, 'tags'))
      else result.tags = tags
      continue
    }
    if (isBlank(value)) continue
    if (typeof value !== 'string' && typeof value !== 'number') {
      result.reasons.push(invalid(field, 'text'))
      continue
    }
    const text = String(value).trim()
    // No column can hold NUL or half a surrogate pair; other control characters are no text.
    // eslint-disable-next-line no-control-regex
    if (!text.isWellFormed() || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) {
      result.reasons.push(invalid(field, 'text without control characters'))
    } else if ([...text].length > MAX_LENGTH[field]) {
      result.reasons.push(tooLong(field, MAX_LENGTH[field], 'characters'))
    } else result.text[field] = text
  }
  for (const field of ['file', 'title', 'feedback', 'licence', 'source'] as const) {
    if (result.text[field] === undefined && !result.reasons.some((r) => r.details?.field === field))
      result.reasons.push({
        code: 'missing_field',
        message: `The row has no ${field}.`,
        details: { field },
      })
  }
  if (result.tags.length === 0 && !result.reasons.some((r) => r.details?.field === 'tags')) {
    result.reasons.push({
      code: 'missing_field',
      message: 'The row has no tags: a target is scored by its tags.',
      details: { field: 'tags' },
    })
  }
  return result
}

/** Tags as a list, or one text of words separated by `;`, `,` or `|`; null when neither. */
function tagsOf(value: unknown): string[] | null {
  if (isBlank(value)) return []
  const items =
    typeof value === 'string'
      ? value.split(/[;,|]/)
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : null
  if (!items) return null
  const tags = items.map((t) => t.trim()).filter(Boolean)
  // eslint-disable-next-line no-control-regex
  if (tags.some((t) => !t.isWellFormed() || /[\u0000-\u001F\u007F]/.test(t))) return null
  return [...new Set(tags)]
}

const invalid = (field: Field, expected: string): Reason => ({
  code: 'invalid_field',
  message: `The ${field} must be ${expected}.`,
  details: { field },
})

const tooLong = (field: Field, max: number, unit: string): Reason => ({
  code: 'field_too_long',
  message: `The ${field} has more than ${max} ${unit}.`,
  details: { field },
})

interface RawRecord {
  row: number
  values: Record<string, unknown>
}

function jsonRecords(text: string): { records: RawRecord[] } {
  let data: unknown
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (err) {
    throw unreadable(`it is not valid JSON (${(err as Error).message.slice(0, 200)})`)
  }
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { targets?: unknown }).targets)
      ? (data as { targets: unknown[] }).targets
      : null
  if (!list) throw unreadable('JSON must be a list of targets, or an object with a "targets" list')
  return {
    records: list.map((entry, i) => ({
      row: i + 1,
      values:
        entry && typeof entry === 'object' && !Array.isArray(entry)
          ? (entry as Record<string, unknown>)
          : {},
    })),
  }
}

/** The separator the header line uses most: comma, semicolon or tab. */
function separatorOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/))
  const counts = [',', ';', '\t'].map((s) => [s, header.split(s).length] as const)
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}

function csvRecords(text: string): { records: RawRecord[] } {
  const lines: number[] = []
  let parsed: string[][]
  try {
    parsed = parse(text, {
      bom: true,
      delimiter: separatorOf(text.replace(/^\uFEFF/, '')),
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        lines.push(context.lines)
        return record
      },
    })
  } catch (err) {
    throw unreadable((err as Error).message.slice(0, 300))
  }
  const [header, ...body] = parsed
  if (!header) return { records: [] }
  const columns = header.map((c) => c.trim())
  return {
    records: body.map((record, i) => ({
      row: lines[i + 1] ?? i + 2,
      values: Object.fromEntries(
        columns.map((column, j) => [column, record[j] ?? '']).filter(([column]) => column),
      ),
    })),
  }
}
