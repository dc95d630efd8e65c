import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import type { AstroConfig } from './config.ts'
import { loadCityIndex } from './geocoding/city-index.ts'
import type { CityIndex } from './geocoding/city-index.ts'
import { siderealHandlers } from './sidereal/routes.ts'

export interface AstroAppOptions {
  config: AstroConfig
  verifyToken?: TokenVerifier
}

declare module 'fastify' {
  interface FastifyInstance {
    cities: CityIndex
  }
}

/** Read-only data: one index per process, however many apps (tests build several). */
let cityIndex: CityIndex | undefined
function cities(app: FastifyInstance): CityIndex {
  if (!cityIndex) {
    const started = performance.now()
    cityIndex = loadCityIndex()
    app.log.info(
      { places: cityIndex.size, ms: Math.round(performance.now() - started) },
      'city index built',
    )
  }
  return cityIndex
}

/** The astro service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function astroApp(app: FastifyInstance, { config, verifyToken }: AstroAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  const index = cities(app)
  app.decorate('cities', index)
  await app.register(contractRoutesPlugin, { tag: 'astro', handlers: siderealHandlers(index) })
}

export default fp(astroApp, { name: 'astro-app' })
