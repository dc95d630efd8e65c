import { AppError } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { CityIndex, Place } from '../geocoding/city-index.ts'
import { formatSiderealTime, siderealTimes } from './sidereal-time.ts'

type Schemas = components['schemas']
type SiderealTime = Schemas['SiderealTime']
type Location = SiderealTime['location']

/** Instants the calculator accepts; the models hold to 1 ms of time over 1900–2100. */
const FIRST_YEAR = 1000
const LAST_YEAR = 2999

const invalid = (field: string, message: string) =>
  new AppError('invalid_request', 400, message, [{ in: 'request', field, message }])

/** Degrees kept to 1e-8 (about 2 µs of sidereal time) and always in [0, 360). */
const roundDegrees = (d: number) => {
  const r = Math.round(d * 1e8) / 1e8
  return r >= 360 ? 0 : r
}

/** The sidereal response for an instant and a place: apparent LST is the headline. */
export function siderealResponse(instant: Date, location: Location): SiderealTime {
  const times = siderealTimes(instant, location.longitude)
  const last = roundDegrees(times.lastDegrees)
  return {
    formatted_time: formatSiderealTime(last),
    lst_degrees: last,
    utc_time: instant.toISOString(),
    location,
    lmst_degrees: roundDegrees(times.lmstDegrees),
    gmst_degrees: roundDegrees(times.gmstDegrees),
    gast_degrees: roundDegrees(times.gastDegrees),
    ut1_assumed_utc: true,
  }
}

/**
 * `customTime` as an instant. The contract has checked its ISO form; a leap second (…:60) is
 * read as the instant after …:59, which is where UT1 is, and the year must be in range.
 */
export function parseCustomTime(text: string | undefined): Date {
  if (text === undefined) return new Date()
  const leap = /:60(?=[.zZ+-]|$)/.test(text)
  const ms = Date.parse(leap ? text.replace(/:60(?=[.zZ+-]|$)/, ':59') : text) + (leap ? 1000 : 0)
  if (!Number.isFinite(ms)) {
    throw invalid('customTime', 'customTime is not a valid date-time (ISO 8601, UTC)')
  }
  const instant = new Date(ms)
  const year = instant.getUTCFullYear()
  if (year < FIRST_YEAR || year > LAST_YEAR) {
    throw invalid(
      'customTime',
      `customTime must lie between the years ${FIRST_YEAR} and ${LAST_YEAR}`,
    )
  }
  return instant
}

/** A position from the query; the contract bounds each value, this checks they come as a pair. */
export function positionOf(query: { lat?: number; lng?: number }): Location {
  const { lat, lng } = query
  if (lat === undefined && lng === undefined) {
    throw invalid('location', 'Give a location, or lat and lng for a position')
  }
  if (lat === undefined || !Number.isFinite(lat)) {
    throw invalid('lat', 'lat (latitude, -90 to 90) is required with lng')
  }
  if (lng === undefined || !Number.isFinite(lng)) {
    throw invalid('lng', 'lng (longitude, -180 to 180) is required with lat')
  }
  return { latitude: lat, longitude: lng, city: null, country: null }
}

const notFound = (suggestions: string[]) =>
  new AppError('location_not_found', 404, 'Location not found', { suggestions })

const locationOf = (p: Place): Location => ({
  latitude: p.latitude,
  longitude: p.longitude,
  city: p.city,
  country: p.country,
  place_id: p.id,
  region: p.region,
})

const candidateOf = (p: Place): Schemas['SiderealPlace'] => ({
  place_id: p.id,
  name: p.name,
  region: p.region,
  country: p.country,
  label: `${p.city}, ${p.country}`,
  latitude: p.latitude,
  longitude: p.longitude,
  population: p.population,
})

/** The place a request names, and the others its name fits (the user may pick one). */
function placeOf(
  cities: CityIndex,
  body: Schemas['SiderealCustomRequest'],
): { location: Location; candidates: Schemas['SiderealPlace'][] } | undefined {
  const language = body.language ?? 'en'
  if (body.placeId !== undefined) {
    const place = cities.byId(body.placeId, language)
    if (!place) throw notFound([])
    return { location: locationOf(place), candidates: [] }
  }
  if (body.location === undefined) return undefined
  const result = cities.lookup(body.location, language)
  if (!result.found) throw notFound(result.suggestions)
  return { location: locationOf(result.place), candidates: result.candidates.map(candidateOf) }
}

/** Sidereal time at the instant and place a request names (a position when it names none). */
export function customSiderealTime(
  cities: CityIndex,
  body: Schemas['SiderealCustomRequest'],
  position: { lat?: number; lng?: number },
): SiderealTime {
  const instant = parseCustomTime(body.customTime)
  const named = placeOf(cities, body)
  if (!named) return siderealResponse(instant, positionOf(position))
  const response = siderealResponse(instant, named.location)
  return named.candidates.length > 0 ? { ...response, candidates: named.candidates } : response
}
