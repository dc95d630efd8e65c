/** A cell Excel and LibreOffice open as text: formulas neutralised, separators quoted. */
export function csvCell(value: string): string {
  // A leading = + - @ (or tab/CR) would make a spreadsheet evaluate the cell as a formula.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** Semicolon-separated rows with CRLF endings, UTF-8 with a byte order mark (for Excel). */
export function toCsv(header: string[], rows: string[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`
}
