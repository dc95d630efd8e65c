import { parse } from 'csv-parse/sync'
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
