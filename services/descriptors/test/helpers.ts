import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildTestService, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import descriptorsApp from '../src/app.ts'
import { loadDescriptorsConfig } from '../src/config.ts'

export interface Harness {
  app: FastifyInstance
  keys: TestKeys
  as(token: string | null): {
    get(url: string): Promise<LightMyRequestResponse>
    post(url: string, payload?: object): Promise<LightMyRequestResponse>
    delete(url: string): Promise<LightMyRequestResponse>
  }
}

/** The service on the test database; given another harness's keys, a replica of it. */
export async function harness(
  env: Record<string, string> = {},
  keysOf?: TestKeys,
): Promise<Harness> {
  const { app, keys } = await buildTestService(
    descriptorsApp,
    loadDescriptorsConfig,
    { DATABASE_URL: testDatabaseUrl(), ...env },
    keysOf,
  )
  const as = (token: string | null) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {}
    return {
      get: (url: string) => app.inject({ method: 'GET', url, headers }),
      post: (url: string, payload?: object) =>
        app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
      delete: (url: string) => app.inject({ method: 'DELETE', url, headers }),
    }
  }
  return { app, keys, as }
}
