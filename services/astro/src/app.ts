import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import type { AstroConfig } from './config.ts'

export interface AstroAppOptions {
  config: AstroConfig
  verifyToken?: TokenVerifier
}

/** The astro service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function astroApp(app: FastifyInstance, { config, verifyToken }: AstroAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(contractRoutesPlugin, { tag: 'astro', handlers: {} })
}

export default fp(astroApp, { name: 'astro-app' })
