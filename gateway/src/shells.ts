// The frontend's route shells (frontend/vite.config.ts): each public page pre-rendered in each
// interface language. A first visit to such a page gets its shell in the visitor's language —
// the one the app will choose: the language they picked (the `crv-lang` cookie the app keeps
// beside its stored choice), else the first of their browser's languages the app has, else
// English. A shell is the page a visitor sees: someone who may be signed in (the auth service's
// `crv_session` marker cookie) gets the bare app, as does every other page and every page of a
// build without shells.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const FALLBACK = 'en'
const SESSION_MARKER = /(?:^|;\s*)crv_session=1(?:;|$)/

export interface Shells {
  /** The file (relative to the build) to answer a page request with. */
  fileFor(path: string, cookie: string | undefined, acceptLanguage: string | undefined): string
  /** Whether the answer depends on the visitor's language (then `Vary` must say so). */
  has(path: string): boolean
}

/** Lists the shells of a build once, at start. */
export function loadShells(dist: string): Shells {
  const root = join(dist, 'shells')
  const pages = new Set<string>()
  const files = new Set<string>()
  if (existsSync(root)) {
    for (const language of readdirSync(root)) {
      if (!statSync(join(root, language)).isDirectory()) continue
      for (const file of walk(join(root, language))) {
        if (!file.endsWith('.html')) continue
        const name = relative(join(root, language), file).replaceAll('\\', '/').slice(0, -5)
        const path = name === 'index' ? '/' : `/${name}`
        pages.add(path)
        files.add(`${language}:${path}`)
      }
    }
  }
  const nameOf = (path: string) => (path === '/' ? 'index' : path.slice(1))
  return {
    has: (path) => pages.has(path),
    fileFor(path, cookie, acceptLanguage) {
      if (!pages.has(path) || SESSION_MARKER.test(cookie ?? '')) return 'index.html'
      const language = [chosenLanguage(cookie), ...preferredLanguages(acceptLanguage), FALLBACK]
        .filter((l): l is string => !!l)
        .find((l) => files.has(`${l}:${path}`))
      return language ? `shells/${language}/${nameOf(path)}.html` : 'index.html'
    },
  }
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else yield path
  }
}

/** The language in the `crv-lang` cookie, if it is a plain language code. */
function chosenLanguage(cookie: string | undefined): string | undefined {
  const match = /(?:^|;\s*)crv-lang=([a-z]{2,3})(?:;|$)/i.exec(cookie ?? '')
  return match?.[1]?.toLowerCase()
}

/** The primary subtags of an Accept-Language header, most preferred first ("de-AT" is "de"). */
function preferredLanguages(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean)
      return { tag: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q) : 1, index }
    })
    .filter((l) => /^[a-z]{2,3}$/.test(l.tag) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag)
}
