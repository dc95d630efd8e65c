import Fastify from 'fastify'
import type { FastifyInstance, RouteHandlerMethod } from 'fastify'
import {
  basePlugin,
  baseConfigShape,
  contractRoutesPlugin,
  fastifyBaseOptions,
  loadConfig,
} from '../src/index.ts'
import type { Handlers, TokenVerifier } from '../src/index.ts'
import { testEnv } from '../src/testing/index.ts'

export const config = () => loadConfig(baseConfigShape('astro', 0), testEnv())

/** A service app serving one tag of the real contract, with test keys. */
export async function serviceFor(
  tag: string,
  verifyToken: TokenVerifier,
  handlers: Handlers = {},
  extra?: (app: FastifyInstance) => void,
): Promise<FastifyInstance> {
  const cfg = config()
  const app = Fastify(fastifyBaseOptions(cfg))
  await app.register(basePlugin, { config: cfg, verifyToken })
  extra?.(app)
  await app.register(contractRoutesPlugin, { tag, handlers })
  await app.ready()
  return app
}

export type { RouteHandlerMethod }
