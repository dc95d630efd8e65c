import type { Language } from '../../lib/api/generated.ts'
import { saveDownload } from '../../lib/download.ts'

/** A CSV export as the server sent it, byte-order mark included. */
export type CsvFile = { fileName: string; text: string }

/** The name the trainer saves an export under when the server gives none (spec §9). */
export function defaultCsvFileName(language: Language, now: Date): string {
  return `my_descriptors_${language}_${now.toISOString().slice(0, 10)}.csv`
}

/**
 * The file name in a Content-Disposition header (`filename*=UTF-8''…` or `filename="…"`), reduced
 * to a plain base name; null when there is none.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null
  let name: string | undefined
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1]
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim())
    } catch {
      name = undefined
    }
  }
  name ??=
    /filename\s*=\s*"([^"]*)"/.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/.exec(header)?.[1]
  const base = name
    ?.trim()
    .split(/[\\/]/)
    .pop()
    ?.split('')
    .filter((c) => c.charCodeAt(0) >= 0x20)
    .join('')
  return base ? base : null
}

/** Decodes a response body as UTF-8 without dropping a byte-order mark, so a saved copy keeps it. */
export function decodeKeepingBom(bytes: ArrayBuffer): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
}

/** Offers `file` to the user as a download. */
export function saveCsv(file: CsvFile): void {
  saveDownload(file.fileName, new Blob([file.text], { type: 'text/csv;charset=utf-8' }))
}
