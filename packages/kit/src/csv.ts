/**
 * A cell Excel and LibreOffice open as text whatever separator they read it with: formulas
 * neutralised wherever a cell may start, and quoted when it holds a separator (`;` is ours, but a
 * reader set to `,` or tab would otherwise split `x,=HYPERLINK(A1),y` into a formula cell).
 */
export function csvCell(value: string): string {
  // A leading = + - @ (or tab/CR) makes a spreadsheet evaluate the cell as a formula; so does
  // one right after a separator or line break, if a reader splits there.
  const safe = value.replace(/(^|[,;\t\r\n])([=+\-@\t\r])/g, "$1'$2")
  return /[;,\t"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** Semicolon-separated rows with CRLF endings, UTF-8 with a byte order mark (for Excel). */
export function toCsv(header: string[], rows: string[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`
}
