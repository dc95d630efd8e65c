// Times as PostgreSQL prints them. Drizzle hands a `timestamptz` over as that text, and
// JavaScript's Date parser does not read it as PostgreSQL meant it: a year below 100 becomes
// 19xx or 20xx (year 0001 came back as 2001), an offset with seconds (the local mean time of an
// old date) or a BC date becomes Invalid Date. Here the fields are read one by one.

const TIMESTAMP =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?|Z)?( BC)?$/

/** The instant a `timestamptz` value stands for, to the millisecond (later digits are dropped). */
export function fromPostgresTimestamp(value: string | Date): Date {
  if (value instanceof Date) return value
  if (value === 'infinity') return new Date(8.64e15)
  if (value === '-infinity') return new Date(-8.64e15)
  const m = TIMESTAMP.exec(value)
  if (!m) throw new Error(`Not a PostgreSQL timestamp: ${value}`)
  const [, year, month, day, hour, minute, second, fraction, sign, offH, offM, offS, bc] = m
  const n = (field: string | undefined) => Number(field ?? 0)
  const at = new Date(0)
  // setUTCFullYear takes every year as it is; Date.UTC would move 0-99 to the 1900s.
  at.setUTCFullYear(bc ? 1 - n(year) : n(year), n(month) - 1, n(day))
  at.setUTCHours(n(hour), n(minute), n(second), n(((fraction ?? '') + '000').slice(0, 3)))
  const offset = (n(offH) * 3600 + n(offM) * 60 + n(offS)) * 1000
  return new Date(at.getTime() - (sign === '-' ? -offset : offset))
}

/**
 * The row with the named timestamp columns as Dates (null stays null): `rows<T>()` names them
 * Dates already, this makes them so.
 */
export function withDates<T extends object>(row: T, columns: readonly (keyof T)[]): T {
  const out = { ...row } as Record<string, unknown>
  for (const column of columns) {
    const value = out[column as string]
    if (typeof value === 'string') out[column as string] = fromPostgresTimestamp(value)
  }
  return out as T
}
