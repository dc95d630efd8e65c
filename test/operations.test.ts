// Every operation of the contract has a handler in the service that owns it: a service whose
// handler map misses an operation (or names one the contract does not have) fails here, before
// any request reaches the gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import { contractOperations } from '@crv/kit'
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
import practiceApp from '../services/practice/src/app.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'

type Plugin = FastifyPluginAsync<{ config: BaseConfig; verifyToken?: TokenVerifier }>
const services: [string, Plugin, (env: NodeJS.ProcessEnv) => BaseConfig][] = [
  ['auth', authApp as Plugin, loadAuthConfig],
  ['descriptors', descriptorsApp as Plugin, loadDescriptorsConfig],
  ['media', mediaApp as Plugin, loadMediaConfig],
  ['ai', aiApp as Plugin, loadAiConfig],
  ['astro', astroApp as Plugin, loadAstroConfig],
  ['practice', practiceApp as Plugin, loadPracticeConfig],
]

it('lists a service here for every tag of the contract', () => {
  const tags = new Set(contractOperations().map((op) => op.tag))
  tags.delete('gateway')
  expect([...tags].sort()).toEqual(services.map(([name]) => name).sort())
})

describe.each(services)('%s', (name, plugin, load) => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = (await buildTestService(plugin, load, { DATABASE_URL: testDatabaseUrl() })).app
  })
  afterAll(() => app.close())

  it('has a handler for each of its operations', () => {
    expect(app.operations.pending).toEqual([])
    // And it serves them: each operation of its tag is a route of the app.
    const mine = contractOperations().filter((op) => op.tag === name)
    expect(mine.length).toBeGreaterThan(0)
    for (const op of mine) {
      expect(app.hasRoute({ method: op.method, url: op.url }), `${op.method} ${op.path}`).toBe(true)
    }
  })
})
