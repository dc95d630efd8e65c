/**
 * Where a spreadsheet may start a formula: at the start of the cell, or right after a separator
 * or line break if a reader splits there, a tab or CR, or = + - @ (full-width too) behind any
 * spaces, controls or invisible characters a reader may skip. A quote goes in at each such place.
 * Found without consuming the separator, so the `=` of `\t=cmd` is caught after its tab is.
 */
const FORMULA_START =
  /(?<=^|[,;\t\r\n])(?=[\t\r]|[\p{White_Space}\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/gu

/**
 * A cell Excel and LibreOffice open as text whatever separator they read it with: formulas
 * neutralised wherever a cell may start, and quoted when it holds a separator (`;` is ours, but a
 * reader set to `,` or tab would otherwise split `x,=HYPERLINK(A1),y` into a formula cell).
 */
export function csvCell(value: string): string {
  const safe = value.replace(FORMULA_START, "'")
  return /[;,\t"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** Semicolon-separated rows with CRLF endings, UTF-8 with a byte order mark (for Excel). */
export function toCsv(header: string[], rows: string[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`
}
