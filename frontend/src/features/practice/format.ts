// Numbers and dates in the interface language (Intl), for the practice pages.

/** `x` with exactly `digits` decimals in `language`, or a dash when there is no value. */
export function fixed(language: string, x: number | null, digits = 2): string {
  if (x === null) return '—'
  return new Intl.NumberFormat(language, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(x)
}

/** A plain number (a count, a rank sum) in `language`. */
export const formatNumber = (language: string, x: number) =>
  new Intl.NumberFormat(language).format(x)

/** A moment as numeric date and time, the way `toLocaleString()` shows it, in `language`. */
export const formatDateTime = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).format(new Date(iso))

/** A time of day (hours, minutes, seconds) in `language`. */
export const formatTime = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, { timeStyle: 'medium' }).format(new Date(iso))
