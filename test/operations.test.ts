// Operations whose issue has not landed answer 501. This list must shrink to zero as the
// issues land: implementing an operation fails this test until it leaves the list, and a new
// operation without a handler fails it until someone decides it belongs here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, FastifyPluginAsync, InjectOptions } from 'fastify'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { BaseConfig, TokenVerifier } from '@crv/kit'
import authApp from '../services/auth/src/app.ts'
import { loadAuthConfig } from '../services/auth/src/config.ts'
import descriptorsApp from '../services/descriptors/src/app.ts'
import { loadDescriptorsConfig } from '../services/descriptors/src/config.ts'
import mediaApp from '../services/media/src/app.ts'
import { loadMediaConfig } from '../services/media/src/config.ts'
import aiApp from '../services/ai/src/app.ts'
import { loadAiConfig } from '../services/ai/src/config.ts'
import astroApp from '../services/astro/src/app.ts'
import { loadAstroConfig } from '../services/astro/src/config.ts'

const NOT_IMPLEMENTED: Record<string, string[]> = {}

// One valid request per service to an operation that is not built yet.
const PROBES: Record<string, InjectOptions> = {
  auth: { method: 'GET', url: '/api/auth/oidc/start' },
}

type Plugin = FastifyPluginAsync<{ config: BaseConfig; verifyToken?: TokenVerifier }>
const services: [string, Plugin, (env: NodeJS.ProcessEnv) => BaseConfig, boolean][] = [
  ['auth', authApp as Plugin, loadAuthConfig, true],
  ['descriptors', descriptorsApp as Plugin, loadDescriptorsConfig, true],
  ['media', mediaApp as Plugin, loadMediaConfig, true],
  ['ai', aiApp as Plugin, loadAiConfig, false],
  ['astro', astroApp as Plugin, loadAstroConfig, false],
]

describe.each(services)('%s operations not built yet', (name, plugin, load, usesDatabase) => {
  let app: FastifyInstance
  let admin: string
  beforeAll(async () => {
    const built = await buildTestService(
      plugin,
      load,
      usesDatabase ? { DATABASE_URL: testDatabaseUrl() } : {},
    )
    app = built.app
    admin = await built.keys.tokenFor('admin')
  })
  afterAll(() => app.close())

  it('are exactly the listed ones', () => {
    expect([...app.operations.pending].sort()).toEqual([...(NOT_IMPLEMENTED[name] ?? [])].sort())
  })

  it('answer 501 in the error shape', async () => {
    const probe = PROBES[name]
    if (!probe || !app.operations.pending.length) return
    const res = await app.inject({ ...probe, headers: { authorization: `Bearer ${admin}` } })
    expect(res.statusCode).toBe(501)
    expect(res.json().error.code).toBe('not_implemented')
  })
})
