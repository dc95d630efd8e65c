import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { CityIndex } from '../geocoding/city-index.ts'
import { customSiderealTime, positionOf, siderealResponse } from './sidereal.ts'

export function siderealHandlers(cities: CityIndex): Handlers {
  return defineHandlers('astro', {
    getSiderealTimeAuto: ({ query }) => siderealResponse(new Date(), positionOf(query)),
    calculateSiderealTimeCustom: ({ body, query }) => customSiderealTime(cities, body, query),
  })
}
