import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { namespaces } from '../lib/i18n/catalogue-files.ts'
import { initialNamespaces } from '../lib/i18n/languages.ts'

// Each page's catalogues are loaded with its code (router.tsx); a module that uses one the page
// does not list would draw its keys instead of its text. This walks each page's modules (static
// and dynamic imports) and collects every catalogue they use.

const src = resolve(import.meta.dirname, '..')

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier)
  for (const file of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(file) && /\.tsx?$/.test(file)) return file
  return null
}

/** The relative imports of a module, static and dynamic (type-only ones left out). */
function importsOf(file: string, code: string): string[] {
  const found: string[] = []
  for (const match of code.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)) {
    const statement = code.slice(code.lastIndexOf('\n', match.index) + 1, match.index)
    if (statement.startsWith('import type') || statement.startsWith('export type')) continue
    const target = resolveImport(file, match[1] as string)
    if (target) found.push(target)
  }
  return found
}

/** The catalogues a module's code uses. */
function catalogues(code: string): string[] {
  const used = new Set<string>()
  if (/useTranslation\(\s*\)/.test(code) || /i18next\.t\('[^':]*'/.test(code)) used.add('common')
  for (const match of code.matchAll(/useTranslation\(\s*(\[[^\]]*\]|'[^']*')/g))
    for (const name of (match[1] as string).matchAll(/'([^']*)'/g)) used.add(name[1] as string)
  for (const ns of namespaces)
    if (code.includes(`'${ns}:`) || code.includes(`\`${ns}:`)) used.add(ns)
  return [...used]
}

function walk(
  entry: string,
  skip: Set<string> = new Set(),
): { modules: Set<string>; used: Map<string, string> } {
  const modules = new Set<string>()
  const used = new Map<string, string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop() as string
    if (modules.has(file) || skip.has(file) || file.endsWith('.test.ts')) continue
    modules.add(file)
    const code = readFileSync(file, 'utf8')
    for (const ns of catalogues(code)) if (!used.has(ns)) used.set(ns, relative(src, file))
    queue.push(...importsOf(file, code))
  }
  return { modules, used }
}

const routerFile = join(src, 'app/router.tsx')
const router = readFileSync(routerFile, 'utf8')
const pages = [...router.matchAll(/page\(\s*\(\) => import\('([^']+)'\),\s*\[([^\]]*)\]/g)].map(
  (match) => ({
    file: resolveImport(routerFile, match[1] as string) as string,
    listed: [...(match[2] as string).matchAll(/'([^']*)'/g)].map((name) => name[1] as string),
  }),
)
// What every page draws: the app's start, without the pages the router loads.
const first = walk(join(src, 'main.tsx'), new Set(pages.map((p) => p.file)))

describe('catalogues loaded with each page', () => {
  it('finds every page of the router', () => {
    expect(pages.length).toBeGreaterThan(10)
    expect(pages.length).toBe(router.split('import(').length - 1)
    for (const page of pages) expect(page.file, page.listed.join()).not.toBeNull()
  })

  it('has in the first bundle every catalogue the app draws on every page', () => {
    expect(first.modules.size).toBeGreaterThan(20)
    const missing = [...first.used].filter(
      ([ns]) => !(initialNamespaces as readonly string[]).includes(ns),
    )
    expect(missing).toEqual([])
  })

  it.each(pages.map((page) => [relative(src, page.file), page] as const))(
    '%s lists every catalogue its code uses',
    (_name, page) => {
      const { used } = walk(page.file, first.modules)
      const available = new Set<string>([...initialNamespaces, ...page.listed])
      const missing = [...used].filter(([ns]) => !available.has(ns))
      expect(missing).toEqual([])
      // A listed catalogue the page never uses is a download for nothing.
      expect(page.listed.filter((ns) => !used.has(ns))).toEqual([])
    },
  )
})
