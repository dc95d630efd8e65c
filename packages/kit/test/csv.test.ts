import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvCell, toCsv } from '../src/csv.ts'

const hostile = [
  'x,=HYPERLINK("http://evil.example","click"),y',
  '=1+1',
  '+cmd',
  '-2+3',
  '@SUM(A1)',
  'a;=b',
  'line\n=formula',
  'tab\t=formula',
  '\t=x',
  'quote " and , comma',
]

describe('CSV cells', () => {
  it.each([',', ';', '\t'])(
    'never start a cell with a formula, read with %j as the separator',
    (delimiter) => {
      const text = toCsv(
        ['word'],
        hostile.map((w) => [w]),
      ).replace(/^\uFEFF/, '')
      const cells = (
        parse(text, { delimiter, relax_column_count: true, relax_quotes: true }) as string[][]
      ).flat()
      for (const cell of cells) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@]/)
    },
  )

  it('reads back every value unchanged but for the neutralising quote, with our separator', () => {
    const text = toCsv(
      ['word'],
      hostile.map((w) => [w]),
    ).replace(/^\uFEFF/, '')
    const rows = parse(text, { delimiter: ';' }) as string[][]
    expect(rows.slice(1).map((r) => r[0]?.replaceAll("'", ''))).toEqual(
      hostile.map((w) => w.replaceAll("'", '')),
    )
  })

  it('leaves plain words as they are', () => {
    for (const word of ['granite', 'Straße', '水', 'well-being']) expect(csvCell(word)).toBe(word)
  })
})

/** A cell's text as a spreadsheet reads it: the quotes taken off. */
function unquoted(cell: string): string {
  if (!cell.startsWith('"')) {
    // Unquoted only when nothing in it could split it or end it.
    expect(cell).not.toMatch(/[;,\t"\r\n]/)
    return cell
  }
  expect(cell).toMatch(/^"([^"]|"")*"$/)
  return cell.slice(1, -1).replaceAll('""', '"')
}

// What some readers skip before they look for a formula: spaces, controls, invisible formatting.
const SKIPPED = /^[\p{White_Space}\p{Cc}\p{Cf}]*/u
const FORMULA = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/
/** A reader that ignores quotes and splits at `separators` (none: the cell whole). */
const READERS = ['', ',', ';', '\t', '\r\n', ',;\t\r\n']

/** The cells a reader of `text` may see, each as it may start once leading blanks are skipped. */
function cellStarts(text: string): string[] {
  return READERS.flatMap((separators) =>
    separators ? text.split(new RegExp(`[${separators}]`)) : [text],
  )
}

function expectNoFormula(value: string): void {
  for (const piece of cellStarts(unquoted(csvCell(value)))) {
    // A tab or CR first is a formula prefix to some readers whatever follows.
    expect(piece, JSON.stringify(value)).not.toMatch(/^[\t\r]/)
    expect(piece.replace(SKIPPED, ''), JSON.stringify(value)).not.toMatch(FORMULA)
  }
}

describe('the CSV neutraliser', () => {
  it('neutralises a formula right after a neutralised tab or CR', () => {
    for (const value of ['\t=cmd|calc', '\r=cmd|calc', 'x,\t=cmd', 'x;\r+1', '=\t=1', '\t\t@x'])
      expectNoFormula(value)
  })

  it('neutralises a formula behind blanks a reader may skip', () => {
    for (const value of [' =1+1', '\u00a0@SUM(A1)', '\u200b=1', 'x, -1+2', '\u000b+1', '＝1+1'])
      expectNoFormula(value)
  })

  it('never lets any text start a formula, however a reader splits or trims it', () => {
    const tricky = fc.constantFrom(
      ...'=+-@＝＋－＠\t\r\n,;"\' \u00a0\u000b\u000c\u0000\u200b\ufeff\u3000a1',
    )
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: tricky }), fc.string({ unit: 'binary' }), fc.string()),
        expectNoFormula,
      ),
      { numRuns: 3000 },
    )
  })

  it('keeps every value whole: our reader gets it back with only quotes added', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 4 }),
        (row) => {
          const text = toCsv(['a'], [row]).replace(/^\uFEFF/, '')
          const [, read] = parse(text, { delimiter: ';', relax_column_count: true }) as string[][]
          expect(read?.map((cell) => cell.replaceAll("'", ''))).toEqual(
            row.map((cell) => cell.replaceAll("'", '')),
          )
        },
      ),
    )
  })
})
