import { describe, expect, it } from 'vitest'
import { decodeKeepingBom, defaultCsvFileName, fileNameFromDisposition } from './csv-file.ts'

describe('CSV file', () => {
  it("takes the server's file name from Content-Disposition", () => {
    expect(fileNameFromDisposition('attachment; filename="my_descriptors_de_2026-11-22.csv"')).toBe(
      'my_descriptors_de_2026-11-22.csv',
    )
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''my%20file.csv")).toBe(
      'my file.csv',
    )
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd')
    expect(fileNameFromDisposition('attachment')).toBeNull()
    expect(fileNameFromDisposition(null)).toBeNull()
  })

  it('names a file without a server name my_descriptors_{language}_{date}.csv', () => {
    expect(defaultCsvFileName('fr', new Date('2026-03-04T10:00:00Z'))).toBe(
      'my_descriptors_fr_2026-03-04.csv',
    )
  })

  it('keeps the UTF-8 byte-order mark that Excel needs', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('ID;Wörd')])
    const text = decodeKeepingBom(bytes.buffer)
    expect(text.charCodeAt(0)).toBe(0xfeff)
    expect(text.slice(1)).toBe('ID;Wörd')
  })
})
