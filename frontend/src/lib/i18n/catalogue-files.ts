// For the tests that read the catalogues as files (src/locales/<language>/<namespace>.json).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { uiLanguages } from './languages.ts'

const root = join(import.meta.dirname, '../../locales')

export const languages = uiLanguages.map((l) => l.code)

/** Every catalogue's name, as English has them. */
export const namespaces = readdirSync(join(root, 'en'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length))

export type Tree = { [key: string]: string | Tree }

export const catalogueTree = (language: string, ns: string) =>
  JSON.parse(readFileSync(join(root, language, `${ns}.json`), 'utf8')) as Tree

/** A catalogue's messages by their dotted keys, in the file's order. */
export function messagesOf(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return typeof value === 'string' ? [[path, value] as [string, string]] : messagesOf(value, path)
  })
}
