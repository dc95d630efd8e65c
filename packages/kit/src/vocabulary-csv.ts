// The descriptor vocabulary's files (services/descriptors/data), read the same way by every
// service that uses them: descriptors seeds its tables from them, practice scores with them, ai
// voices them. Only descriptors owns them; the others read them once, read-only.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The vocabulary's languages, in the order of its files (English is the master list). */
export const VOCABULARY_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
export type VocabularyLanguage = (typeof VOCABULARY_LANGUAGES)[number]

/** One row of a vocabulary file, by its header's column names; every cell trimmed. */
export type VocabularyRow = Record<string, string>

/**
 * Semicolon-separated, with a header, UTF-8 (a byte order mark is skipped), blank lines ignored;
 * cells hold no semicolons or quotes (the data test checks), so there is nothing to unquote.
 * A short row gets empty cells for its missing columns.
 */
export function parseVocabularyCsv(text: string): VocabularyRow[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
  const header = (lines.shift() ?? '').split(';')
  return lines.map((line) => {
    const cells = line.split(';')
    return Object.fromEntries(header.map((name, i) => [name, (cells[i] ?? '').trim()]))
  })
}

/** The rows of `dir/file`, or null when there is no such file (a language not shipped). */
export function readVocabularyCsv(dir: string, file: string): VocabularyRow[] | null {
  const path = join(dir, file)
  if (!existsSync(path)) return null
  return parseVocabularyCsv(readFileSync(path, 'utf8'))
}
