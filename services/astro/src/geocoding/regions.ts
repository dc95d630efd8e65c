import { foldName } from './fold.ts'

/** US states and DC by their GeoNames admin code (the only country whose codes are letters). */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
}

/** Names people type for a country that the English display names do not give. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  'czech republic': 'CZ',
  'ivory coast': 'CI',
  burma: 'MM',
  'south korea': 'KR',
  korea: 'KR',
  'north korea': 'KP',
  russia: 'RU',
  'vatican city': 'VA',
  uae: 'AE',
}

/** Languages whose country names a typed qualifier may use: the interface languages. */
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const

export interface Regions {
  /** A country code's name in a language, e.g. 'DE' → 'Germany', 'Deutschland'. */
  countryName(code: string, language?: string): string
  /** Country codes a typed qualifier names (code, English or other-language name, alias). */
  countriesNamed(folded: string): ReadonlySet<string>
  /** Admin codes a typed qualifier names: the code itself, or a US state's name. */
  adminCodesNamed(folded: string): ReadonlySet<string>
  /** A US state's name for its code, if any. */
  stateName(country: string, adminCode: string): string | undefined
}

export function buildRegions(countryCodes: Iterable<string>): Regions {
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
  const names = new Map<string, string>()
  const byName = new Map<string, Set<string>>()
  const add = (map: Map<string, Set<string>>, key: string, value: string) => {
    if (!key) return
    const set = map.get(key) ?? new Set<string>()
    set.add(value)
    map.set(key, set)
  }
  for (const code of countryCodes) {
    names.set(code, english.of(code) ?? code)
    add(byName, code.toLowerCase(), code)
    for (const language of LANGUAGES) {
      const local = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' })
      const name = local.of(code)
      if (name) add(byName, foldName(name), code)
    }
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) add(byName, alias, code)

  const admin = new Map<string, Set<string>>()
  for (const [code, name] of Object.entries(US_STATES)) add(admin, foldName(name), code)

  const none: ReadonlySet<string> = new Set()
  const displayNames = new Map<string, Intl.DisplayNames>()
  return {
    countryName: (code, language = 'en') => {
      if (language === 'en') return names.get(code) ?? code
      let display = displayNames.get(language)
      if (!display) {
        display = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' })
        displayNames.set(language, display)
      }
      return display.of(code) ?? code
    },
    countriesNamed: (folded) => byName.get(folded) ?? none,
    adminCodesNamed: (folded) => {
      const named = admin.get(folded)
      const code = folded.toUpperCase()
      return named ? new Set([...named, code]) : new Set([code])
    },
    stateName: (country, adminCode) => (country === 'US' ? US_STATES[adminCode] : undefined),
  }
}
