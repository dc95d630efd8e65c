// Drizzle's `execute` leaves timestamps as PostgreSQL writes them (text, DateStyle ISO); the rows
// of this service carry them as Dates, as pool.query gave them.

const TIMESTAMPTZ =
  /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/

/** A timestamptz as PostgreSQL writes it ('2026-11-27 21:52:01.123456+00'), as a Date. */
export function parseTimestamptz(text: string): Date {
  const m = TIMESTAMPTZ.exec(text)
  if (!m) return new Date(text)
  const [, y, mo, d, h, mi, s, fraction, sign, oh, om, os] = m
  const ms = Number(((fraction ?? '') + '000').slice(0, 3))
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms)
  const offset = (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0)) * 1000
  const date = new Date(sign === '+' ? utc - offset : utc + offset)
  // Date.UTC reads the years 0-99 as 1900-1999.
  if (Number(y) < 100) date.setUTCFullYear(date.getUTCFullYear() - 1900)
  return date
}

/**
 * The row with the named timestamp columns as Dates (null stays null): `rows<T>()` names them
 * Dates already, this makes them so.
 */
export function withDates<T extends object>(row: T, columns: readonly (keyof T)[]): T {
  const out = { ...row } as Record<string, unknown>
  for (const column of columns) {
    const value = out[column as string]
    if (typeof value === 'string') out[column as string] = parseTimestamptz(value)
  }
  return out as T
}
