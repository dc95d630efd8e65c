import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseVocabularyCsv, readVocabularyCsv } from '../src/index.ts'

describe('the vocabulary files', () => {
  it('reads rows by the header, trimmed, past a byte order mark, CRLF and blank lines', () => {
    const text =
      '\uFEFFid;category;en;pos\r\nsky;land; sky ;noun\r\n\r\n  \nblue;colors;blue;adjective\n'
    expect(parseVocabularyCsv(text)).toEqual([
      { id: 'sky', category: 'land', en: 'sky', pos: 'noun' },
      { id: 'blue', category: 'colors', en: 'blue', pos: 'adjective' },
    ])
  })

  it('gives a short row empty cells for its missing columns', () => {
    expect(parseVocabularyCsv('id;ja;ja_kana\nsky;空')).toEqual([
      { id: 'sky', ja: '空', ja_kana: '' },
    ])
  })

  it('has no rows for a header alone or an empty file', () => {
    expect(parseVocabularyCsv('id;en\n')).toEqual([])
    expect(parseVocabularyCsv('')).toEqual([])
  })

  it('reads a file of a directory, and answers null for a language not shipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vocabulary-'))
    writeFileSync(join(dir, 'vocabulary.de.csv'), 'id;de\nsky;Himmel\n')
    expect(readVocabularyCsv(dir, 'vocabulary.de.csv')).toEqual([{ id: 'sky', de: 'Himmel' }])
    expect(readVocabularyCsv(dir, 'vocabulary.fr.csv')).toBeNull()
  })
})
