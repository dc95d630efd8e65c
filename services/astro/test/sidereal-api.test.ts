import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildTestService } from '@crv/kit/testing'
import astroApp from '../src/app.ts'
import { loadAstroConfig } from '../src/config.ts'

let app: FastifyInstance
beforeAll(async () => {
  app = (await buildTestService(astroApp, loadAstroConfig)).app
})
afterAll(() => app.close())

const auto = (query: string) =>
  app.inject({ method: 'GET', url: `/api/sidereal-time/auto${query}` })
const custom = (payload: unknown, query = '') =>
  app.inject({
    method: 'POST',
    url: `/api/sidereal-time/custom${query}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  })

/** A 400 in the contract's error shape whose message names the field. */
async function expectBadField(res: Awaited<ReturnType<typeof auto>>, field: string) {
  expect(res.statusCode).toBe(400)
  const { error } = res.json()
  // invalid_request from the contract's checks, invalid_parameter for an infinite number.
  expect(error.code).toMatch(/^invalid_(request|parameter)$/)
  expect(error.message).toContain(field)
}

/** Signed difference of two angles in degrees, wrapped to (−180, 180]. */
const angleDiff = (a: number, b: number) => ((((a - b) % 360) + 540) % 360) - 180
const MS_DEG = 360 / 86_400_000
const RAD_TO_DEG = 180 / Math.PI

describe('GET /api/sidereal-time/auto', () => {
  it('answers the sidereal time now at a position, with UT1 taken as UTC', async () => {
    const before = Date.now()
    const res = await auto('?lat=52.52&lng=13.405')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.location).toEqual({ latitude: 52.52, longitude: 13.405, city: null, country: null })
    expect(body.ut1_assumed_utc).toBe(true)
    expect(Date.parse(body.utc_time)).toBeGreaterThanOrEqual(before - 1)
    expect(body.formatted_time).toMatch(/^\d\d:\d\d:\d\d$/)
    // The headline is apparent local time: Greenwich apparent plus the east longitude.
    expect(angleDiff(body.lst_degrees, body.gast_degrees + 13.405)).toBeCloseTo(0, 6)
    expect(angleDiff(body.lmst_degrees, body.gmst_degrees + 13.405)).toBeCloseTo(0, 6)
    const hours = body.lst_degrees / 15
    const [h, m] = body.formatted_time.split(':').map(Number)
    expect(h).toBe(Math.floor(hours))
    expect(m).toBe(Math.floor((hours * 60) % 60))
  })

  it.each([
    ['?lat=91&lng=0', 'lat'],
    ['?lat=-90.5&lng=0', 'lat'],
    ['?lat=0&lng=180.01', 'lng'],
    ['?lat=0&lng=-181', 'lng'],
    ['?lat=north&lng=0', 'lat'],
    ['?lat=0&lng=', 'lng'],
    ['?lat=Infinity&lng=0', 'lat'],
    ['?lng=0', 'lat'],
    ['?lat=0', 'lng'],
  ])('refuses %s with a message naming %s', async (query, field) => {
    await expectBadField(await auto(query), field)
  })

  it('accepts the edges of the globe', async () => {
    for (const q of ['?lat=90&lng=180', '?lat=-90&lng=-180', '?lat=0&lng=0'])
      expect((await auto(q)).statusCode).toBe(200)
  })
})

describe('POST /api/sidereal-time/custom', () => {
  it('finds a city by its name in another language, named in the language asked for', async () => {
    const res = await custom({ location: 'München', language: 'de' })
    expect(res.statusCode).toBe(200)
    expect(res.json().location).toMatchObject({
      city: 'München, Bayern',
      region: 'Bayern',
      country: 'Deutschland',
    })
    const tokyo = await custom({ location: '東京', language: 'ja' })
    expect(tokyo.json().location).toMatchObject({ city: '東京都', country: '日本' })
  })

  it('takes Roma for Rome, Italy, and lets the user pick Roma, Texas', async () => {
    const res = await custom({ location: 'Roma', customTime: '2024-06-21T03:14:15Z' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.location).toMatchObject({ city: 'Rome, Lazio', country: 'Italy' })
    expect(body.location.longitude).toBeCloseTo(12.5, 0)
    const texas = body.candidates.find(
      (c: { label: string }) => c.label === 'Roma, Texas, United States',
    )
    expect(body.candidates[0].label).toBe('Rome, Lazio, Italy')
    expect(texas).toBeDefined()

    const picked = await custom({ placeId: texas.place_id, customTime: '2024-06-21T03:14:15Z' })
    expect(picked.statusCode).toBe(200)
    expect(picked.json().location).toMatchObject({ city: 'Roma, Texas', country: 'United States' })
    expect(picked.json().candidates).toBeUndefined()
    // Rome and Roma, Texas are 111° of longitude apart: about 7.4 h of sidereal time.
    const hours = (((body.lst_degrees - picked.json().lst_degrees + 360) % 360) / 15).toFixed(1)
    expect(hours).toBe('7.4')
  })

  it('gives the LST of a typed city and instant, as the reference routines do', async () => {
    const res = await custom({ location: 'Berlin', customTime: '2024-06-21T03:14:15Z' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.location).toEqual({
      latitude: 52.52437,
      longitude: 13.41053,
      city: 'Berlin',
      country: 'Germany',
      place_id: 2950159,
      region: 'Berlin',
    })
    expect(body.utc_time).toBe('2024-06-21T03:14:15.000Z')
    // ERFA eraGst06a for this instant (UT1 = UTC, TT = UTC + 69.184 s) is 5.556753428501358 rad.
    const expected = 5.556753428501358 * RAD_TO_DEG + 13.41053
    expect(Math.abs(angleDiff(body.lst_degrees, expected))).toBeLessThan(MS_DEG)
    expect(body.formatted_time).toBe('22:07:09')
  })

  it('reads an instant with an offset as the same UTC instant', async () => {
    const a = (await custom({ location: 'Tokyo', customTime: '2024-01-01T09:00:00+09:00' })).json()
    const b = (await custom({ location: 'Tokyo', customTime: '2024-01-01T00:00:00Z' })).json()
    expect(a.utc_time).toBe('2024-01-01T00:00:00.000Z')
    expect(a.lst_degrees).toBe(b.lst_degrees)
  })

  it('uses the lat/lng query when no location text is given', async () => {
    const res = await custom({ customTime: '2000-01-01T12:00:00Z' }, '?lat=-33.9&lng=151.2')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.location).toEqual({ latitude: -33.9, longitude: 151.2, city: null, country: null })
    const expected = 4.894899323195352 * RAD_TO_DEG + 151.2
    expect(Math.abs(angleDiff(body.lst_degrees, expected))).toBeLessThan(MS_DEG)
  })

  it('prefers the location text over a position in the query', async () => {
    const body = (await custom({ location: 'Sydney' }, '?lat=10&lng=10')).json()
    expect(body.location.city).toBe('Sydney, New South Wales')
    expect(body.location.country).toBe('Australia')
  })

  it('uses now when no time is given', async () => {
    const before = Date.now()
    const body = (await custom({ location: 'Paris' })).json()
    expect(Date.parse(body.utc_time)).toBeGreaterThanOrEqual(before - 1)
    expect(Date.parse(body.utc_time)).toBeLessThanOrEqual(Date.now())
  })

  it('reads a leap second as the instant after 23:59:59', async () => {
    const res = await custom({ location: 'London', customTime: '2016-12-31T23:59:60Z' })
    expect(res.statusCode).toBe(200)
    expect(res.json().utc_time).toBe('2017-01-01T00:00:00.000Z')
  })

  it.each([
    [{}, '', 'location'],
    [{ location: '   ' }, '', 'location'],
    [{ location: '' }, '', 'location'],
    [{ location: 42 }, '', 'location'],
    [{ location: 'x'.repeat(201) }, '', 'location'],
    [{ customTime: '2024-01-01T00:00:00Z' }, '?lat=10', 'lng'],
    [{ customTime: '2024-01-01T00:00:00Z' }, '?lng=10', 'lat'],
    [{}, '?lat=95&lng=10', 'lat'],
    [{}, '?lat=10&lng=200', 'lng'],
    [{ location: 'Berlin', customTime: 'yesterday' }, '', 'customTime'],
    [{ location: 'Berlin', customTime: '2024-13-01T00:00:00Z' }, '', 'customTime'],
    [{ location: 'Berlin', customTime: '2023-02-30T00:00:00Z' }, '', 'customTime'],
    [{ location: 'Berlin', customTime: '2024-01-01T00:00:00' }, '', 'customTime'],
    [{ location: 'Berlin', customTime: '0999-12-31T23:59:59Z' }, '', 'customTime'],
    [{ location: 'Berlin', customTime: '3000-01-01T00:00:00Z' }, '', 'customTime'],
    [{ location: 'Berlin', customTime: 1700000000000 }, '', 'customTime'],
    [{ location: 'Berlin', when: 'now' }, '', 'when'],
  ])('refuses %j%s with a message naming %s', async (payload, query, field) => {
    await expectBadField(await custom(payload, query), field)
  })

  it('refuses a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/sidereal-time/custom',
      headers: { 'content-type': 'application/json' },
      payload: '{"location":',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('invalid_request')
  })
})

describe('geocoding in custom mode', () => {
  const place = async (location: string) => {
    const res = await custom({ location, customTime: '2024-01-01T00:00:00Z' })
    expect(res.statusCode).toBe(200)
    return res.json().location
  }

  it('finds Berlin, Germany', async () => {
    expect(await place('Berlin')).toMatchObject({ city: 'Berlin', country: 'Germany' })
  })

  it('finds São Paulo with or without accents and capitals', async () => {
    for (const text of ['São Paulo', 'sao paulo', 'SAO PAULO', '  São  Paulo '])
      expect(await place(text)).toMatchObject({
        city: 'São Paulo',
        country: 'Brazil',
        latitude: -23.5475,
        longitude: -46.63611,
      })
  })

  it("finds Paris, Texas for 'Paris, TX' and 'Paris, Texas'", async () => {
    for (const text of ['Paris, TX', 'paris, texas', 'Paris, Texas, United States'])
      expect(await place(text)).toMatchObject({
        city: 'Paris, Texas',
        country: 'United States',
        latitude: 33.66094,
        longitude: -95.55551,
      })
  })

  it('takes the most populous Paris, in France, when no country is given', async () => {
    expect(await place('Paris')).toMatchObject({
      city: 'Paris, Île-de-France Region',
      country: 'France',
    })
  })

  it('narrows by country name or code', async () => {
    expect(await place('Paris, France')).toMatchObject({ country: 'France' })
    expect(await place('Paris, CA')).toMatchObject({ country: 'Canada' })
    expect(await place('Berlin, US')).toMatchObject({ country: 'United States' })
    expect(await place('London, UK')).toMatchObject({
      city: 'London, England',
      country: 'United Kingdom',
    })
    expect(await place('Köln, Deutschland')).toMatchObject({
      city: 'Köln, North Rhine-Westphalia',
      country: 'Germany',
    })
  })

  it("answers 404 'Location not found' with up to five suggestions", async () => {
    const res = await custom({ location: 'Berln' })
    expect(res.statusCode).toBe(404)
    const { error } = res.json()
    expect(error.code).toBe('location_not_found')
    expect(error.message).toBe('Location not found')
    expect(error.details.suggestions.length).toBeGreaterThan(0)
    expect(error.details.suggestions.length).toBeLessThanOrEqual(5)
    expect(error.details.suggestions[0]).toBe('Berlin, Germany')
  })

  it('suggests the places of that name when the qualifier matches none', async () => {
    const res = await custom({ location: 'Paris, Narnia' })
    expect(res.statusCode).toBe(404)
    const { suggestions } = res.json().error.details
    expect(suggestions).toContain('Paris, Île-de-France Region, France')
    expect(suggestions).toContain('Paris, Texas, United States')
    // Every suggestion resolves when sent back.
    for (const s of suggestions) expect((await custom({ location: s })).statusCode).toBe(200)
  })

  it('gives an empty list for text that resembles nothing', async () => {
    const res = await custom({ location: '!!!' })
    expect(res.statusCode).toBe(404)
    expect(res.json().error.details.suggestions).toEqual([])
  })
})
