// The pure parts of the import: reading manifests, the licence allowlist, tags by vocabulary.
import { describe, expect, it } from 'vitest'
import { AppError } from '@crv/kit'
import { loadPracticeConfig } from '../src/config.ts'
import { allowedLicence } from '../src/target-import/licences.ts'
import { MAX_ROWS, parseManifest } from '../src/target-import/manifest.ts'
import { resolveTags } from '../src/target-import/tags.ts'
import { loadVocabulary } from '../src/vocabulary.ts'

const codeOf = (run: () => unknown) => {
  try {
    run()
  } catch (err) {
    return err instanceof AppError ? err.code : String(err)
  }
  return 'no error'
}

describe('reading a manifest', () => {
  it('reads CSV with commas, semicolons or tabs, a BOM and quoted cells over several lines', () => {
    for (const sep of [',', ';', '\t']) {
      const text = `\uFEFF${['File', 'Title', 'Feedback', 'License', 'Source', 'Tags'].join(sep)}\n${[
        'a.jpg',
        'A',
        '"Two\nlines"',
        'CC0',
        's',
        '"cold| rough"',
      ].join(sep)}\n\n${['b.jpg', 'B', 'f', 'own', 's', 'warm'].join(sep)}\n`
      const { rows, ignoredColumns } = parseManifest('m.csv', text)
      expect(ignoredColumns).toEqual([])
      expect(
        rows.map((r) => [r.row, r.text.file, r.text.feedback, r.text.licence, r.tags]),
      ).toEqual([
        [3, 'a.jpg', 'Two\nlines', 'CC0', ['cold', 'rough']],
        [5, 'b.jpg', 'f', 'own', ['warm']],
      ])
      expect(rows.every((r) => r.reasons.length === 0)).toBe(true)
    }
  })

  it('reads JSON as a list or as an object with a targets list, and says what is wrong with each row', () => {
    const entry = {
      file: 'a.jpg',
      title: 'A',
      feedback: 'f',
      licence: 'CC0-1.0',
      source: 's',
      tags: ['cold'],
    }
    expect(parseManifest('m.json', JSON.stringify([entry])).rows[0]?.reasons).toEqual([])
    const { rows, ignoredColumns } = parseManifest(
      'M.JSON',
      JSON.stringify({
        pool: { slug: 'x' },
        targets: [
          { ...entry, slug: 'a' },
          { ...entry, title: 7, tags: 'cold, rough' },
          { ...entry, title: { text: 'A' }, tags: [1] },
          { ...entry, feedback: '   ', attribution: 'x'.repeat(501) },
          { ...entry, title: 'a\u0000b', source: '\uD800', tags: ['cold\u0007'] },
          'not an object',
        ],
      }),
    )
    expect(ignoredColumns).toEqual(['slug'])
    expect(rows[1]?.text.title).toBe('7')
    expect(rows[1]?.tags).toEqual(['cold', 'rough'])
    const codes = rows.map((r) => r.reasons.map((x) => `${x.code}:${x.details?.field}`))
    expect(codes[2]).toEqual(['invalid_field:title', 'invalid_field:tags'])
    expect(codes[3]).toEqual(['field_too_long:attribution', 'missing_field:feedback'])
    expect(codes[4]).toEqual(['invalid_field:title', 'invalid_field:source', 'invalid_field:tags'])
    expect(codes[5]).toEqual([
      'missing_field:file',
      'missing_field:title',
      'missing_field:feedback',
      'missing_field:licence',
      'missing_field:source',
      'missing_field:tags',
    ])
  })

  it('refuses what is no manifest, and one of more rows than it imports at once', () => {
    expect(codeOf(() => parseManifest('m.json', '{"targets": '))).toBe('manifest_unreadable')
    expect(codeOf(() => parseManifest('m.json', '{"pool": {}}'))).toBe('manifest_unreadable')
    expect(codeOf(() => parseManifest('m.csv', 'file,title\n'))).toBe('manifest_unreadable')
    expect(codeOf(() => parseManifest('m.csv', 'file,title\n"a.jpg,b\n'))).toBe(
      'manifest_unreadable',
    )
    const many = `file\n${'a.jpg\n'.repeat(MAX_ROWS + 1)}`
    expect(codeOf(() => parseManifest('m.csv', many))).toBe('manifest_too_large')
  })
})

describe('the licence allowlist', () => {
  it('reads the ways collections write the allowed licences', () => {
    const read = {
      CC0: 'CC0-1.0',
      'cc0 1.0': 'CC0-1.0',
      'CC-0': 'CC0-1.0',
      'https://creativecommons.org/publicdomain/zero/1.0/': 'CC0-1.0',
      'Public Domain': 'public-domain',
      PD: 'public-domain',
      'https://creativecommons.org/publicdomain/mark/1.0/': 'public-domain',
      own: 'own',
      'CC BY 4.0': 'CC-BY-4.0',
      'cc-by-2.5': 'CC-BY-2.5',
      'CC BY-SA 3.0': 'CC-BY-SA-3.0',
      'Creative Commons Attribution-ShareAlike 4.0': 'CC-BY-SA-4.0',
      'https://creativecommons.org/licenses/by-sa/2.0/deed.de': 'CC-BY-SA-2.0',
      'CC-BY-4': 'CC-BY-4.0',
    }
    for (const [written, stored] of Object.entries(read))
      expect(allowedLicence(written)).toBe(stored)
  })

  it('refuses NonCommercial, NoDerivatives, unknown versions and anything else', () => {
    for (const written of [
      'CC-BY-NC-4.0',
      'CC BY-NC-SA 3.0',
      'CC-BY-ND-4.0',
      'https://creativecommons.org/licenses/by-nc/4.0/',
      'CC BY',
      'CC-BY-5.0',
      'CC-BY-1.0',
      'All rights reserved',
      'GFDL',
      'MIT',
      'public domain-ish',
      '',
    ])
      expect(allowedLicence(written), written).toBeNull()
  })
})

describe('tags', () => {
  it('takes concept ids and words in any language of the vocabulary, and reports the rest', () => {
    const vocabulary = loadVocabulary(
      loadPracticeConfig({ DATABASE_URL: 'postgres://x/y' }).VOCABULARY_DIR,
    )
    expect(resolveTags(vocabulary, ['tree', 'Baum', 'soleil', 'agua', 'Cold', 'blorf'])).toEqual({
      ids: ['tree', 'sun', 'water-gestalt', 'cold'],
      unknown: ['blorf'],
    })
  })
})
