import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { basePlugin, contractRoutesPlugin, redisPlugin } from '@crv/kit'
import type { TokenVerifier } from '@crv/kit'
import type { AiConfig } from './config.ts'

export interface AiAppOptions {
  config: AiConfig
  verifyToken?: TokenVerifier
}

/** The ai service as a plugin: never listens (server.ts does), so tests use `inject`. */
async function aiApp(app: FastifyInstance, { config, verifyToken }: AiAppOptions) {
  await app.register(basePlugin, { config, ...(verifyToken ? { verifyToken } : {}) })
  await app.register(redisPlugin, { url: config.REDIS_URL })
  await app.register(contractRoutesPlugin, { tag: 'ai', handlers: {} })
}

export default fp(aiApp, { name: 'ai-app' })
