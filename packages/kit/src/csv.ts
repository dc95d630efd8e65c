const SEPARATOR = /[,;\t\r\n]/
/** What a reader may skip before it looks for a formula: spaces, controls, invisible marks. */
const SKIPPED = /[\p{White_Space}\p{Cc}\p{Cf}]/u
const FORMULA = /[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/

/**
 * Where a spreadsheet may start a formula: at the start of the cell, or right after a separator
 * or line break if a reader splits there, a tab or CR, or = + - @ (full-width too) behind any
 * spaces, controls or invisible characters a reader may skip. A quote goes in at each such place,
 * so the `=` of `\t=cmd` is caught after its tab is. One pass from the right finds, for every
 * place, the first character a reader keeps: linear in the length, whatever the input (a regular
 * expression with a look-ahead over the skipped run was quadratic on `\n\x00` repeated).
 */
function neutralised(value: string): string {
  const chars = [...value]
  const firstKept: (string | undefined)[] = new Array<string | undefined>(chars.length + 1)
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = chars[i] as string
    firstKept[i] = SKIPPED.test(c) ? firstKept[i + 1] : c
  }
  let out = ''
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string
    const cellStart = i === 0 || SEPARATOR.test(chars[i - 1] as string)
    if (cellStart && (c === '\t' || c === '\r' || FORMULA.test(firstKept[i] ?? ''))) out += "'"
    out += c
  }
  return out
}

/**
 * A cell Excel and LibreOffice open as text whatever separator they read it with: formulas
 * neutralised wherever a cell may start, and quoted when it holds a separator (`;` is ours, but a
 * reader set to `,` or tab would otherwise split `x,=HYPERLINK(A1),y` into a formula cell).
 */
export function csvCell(value: string): string {
  const safe = neutralised(value)
  return /[;,\t"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** Semicolon-separated rows with CRLF endings, UTF-8 with a byte order mark (for Excel). */
export function toCsv(header: string[], rows: string[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`
}
