// Every operation of the contract, called as an anonymous visitor, a user and an administrator,
// against the service that owns it: access is decided by each service from the verified token.
// Generated from the contract, so an operation is covered the day it is added.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { contractOperations } from '@crv/kit'
import type { BaseConfig, Operation, TokenVerifier } from '@crv/kit'
import { buildTestService, createTestKeys, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
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
const services: Record<string, [Plugin, (env: NodeJS.ProcessEnv) => BaseConfig]> = {
  auth: [authApp as Plugin, loadAuthConfig],
  descriptors: [descriptorsApp as Plugin, loadDescriptorsConfig],
  media: [mediaApp as Plugin, loadMediaConfig],
  ai: [aiApp as Plugin, loadAiConfig],
  astro: [astroApp as Plugin, loadAstroConfig],
  practice: [practiceApp as Plugin, loadPracticeConfig],
}

const apps: Record<string, FastifyInstance> = {}
let keys: TestKeys
let tokens: { user: string; admin: string }

beforeAll(async () => {
  // One key pair for every service, as in production (one auth service signs for all).
  keys = await createTestKeys()
  // The auth service last: deleting and exporting an account call the services that keep a
  // user's data, listening here on ports of their own.
  const partUrls: Record<string, string> = {}
  for (const [name, [plugin, load]] of Object.entries(services)) {
    if (name === 'auth') continue
    const app = (await buildTestService(plugin, load, { DATABASE_URL: testDatabaseUrl() }, keys))
      .app
    apps[name] = app
    if (['descriptors', 'media', 'practice'].includes(name))
      partUrls[`${name.toUpperCase()}_URL`] = await app.listen({ port: 0, host: '127.0.0.1' })
  }
  const [authPlugin, loadAuth] = services.auth ?? []
  if (!authPlugin || !loadAuth) throw new Error('no auth service')
  apps.auth = (
    await buildTestService(
      authPlugin,
      loadAuth,
      { DATABASE_URL: testDatabaseUrl(), ...partUrls },
      keys,
    )
  ).app
  tokens = { user: await keys.tokenFor('user'), admin: await keys.tokenFor('admin') }
}, 60_000)
afterAll(() => Promise.all(Object.values(apps).map((a) => a.close())))

/** A path with its parameters filled by values of the right type. */
function urlOf(op: Operation): string {
  return op.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (/category/i.test(name)) return 'random'
    if (name === 'service') return 'astro'
    if (name === 'gestaltId') return 'water'
    if (op.path.includes('tachistoscope') && op.method === 'DELETE') return randomUUID()
    return '1'
  })
}

function appOf(op: Operation): FastifyInstance {
  const app = apps[op.tag]
  if (!app) throw new Error(`no service for ${op.tag}`)
  return app
}

const call = (op: Operation, token?: string) =>
  appOf(op).inject({
    method: op.method,
    url: urlOf(op),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })

const ops = contractOperations().filter((op) => op.tag !== 'gateway')

/** Refused for access reasons (as opposed to an answer of the operation itself, e.g. no session). */
const refused = (res: { statusCode: number; body: string }) =>
  (res.statusCode === 401 || res.statusCode === 403) &&
  ['unauthorized', 'forbidden', 'token_expired'].includes(
    (JSON.parse(res.body) as { error: { code: string } }).error.code,
  )

type Contract = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
const contract = JSON.parse(
  readFileSync(new URL('../packages/contracts/generated/openapi.json', import.meta.url), 'utf8'),
) as Contract

/** The statuses the contract declares for an operation. */
const declared = (op: Operation) =>
  Object.keys(contract.paths[op.path]?.[op.method.toLowerCase()]?.responses ?? {})

/**
 * A GET with nothing to fill in (no path parameter, no required query) is a whole request even
 * as sent here: the operation itself must succeed (2xx, or a redirect).
 */
const complete = (op: Operation) =>
  op.method === 'GET' &&
  !op.path.includes('{') &&
  !((op.schema.querystring as { required?: string[] } | undefined)?.required?.length ?? 0)

/**
 * Let through: an answer of the operation itself, not of the access check, and one the contract
 * declares (a 400 for the empty body sent here, a 404 for id 1); success for a complete request.
 * A 500 is never 'allowed'.
 */
function expectAllowed(op: Operation, res: { statusCode: number; body: string }) {
  const what = `${op.method} ${op.path} answered ${res.statusCode}: ${res.body.slice(0, 200)}`
  expect(refused(res), what).toBe(false)
  expect(res.statusCode, what).toBeLessThan(500)
  expect(declared(op), what).toContain(String(res.statusCode))
  if (complete(op) && !(incompleteHere[op.operationId] ?? []).includes(res.statusCode)) {
    expect(res.statusCode, what).toBeLessThan(400)
  }
}

/** Complete requests that answer otherwise here, for the reason given. */
const incompleteHere: Record<string, number[]> = {
  // The tokens here name accounts the auth service never stored: 401 account_not_found.
  getCurrentUser: [401],
  exportAccount: [401],
}

describe.each(ops.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', (_name, op) => {
  it(`as a visitor: ${op.access === 'public' ? 'allowed' : '401'}`, async () => {
    const res = await call(op)
    if (op.access === 'public') expectAllowed(op, res)
    else {
      expect(res.statusCode).toBe(401)
      expect(res.json().error.code).toBe('unauthorized')
    }
  })

  it(`as a user: ${op.access === 'admin' ? '403' : 'allowed'}`, async () => {
    const res = await call(op, tokens.user)
    if (op.access === 'admin') {
      expect(res.statusCode).toBe(403)
      expect(res.json().error.code).toBe('forbidden')
    } else expectAllowed(op, res)
  })

  it('as an administrator: allowed', async () => {
    const res = await call(op, tokens.admin)
    expectAllowed(op, res)
  })
})

describe('forged tokens, refused by every service', () => {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  // An operation that needs a token; for a service with none (astro), a public one: a token that
  // is presented is verified all the same, and a forged one refused.
  const protectedOps = Object.keys(services).map(
    (tag) =>
      ops.find((op) => op.tag === tag && op.access !== 'public') ??
      ops.find((op) => op.tag === tag && op.method === 'GET'),
  )

  it.each(Object.keys(services))(
    '%s refuses alg:none, another key, an expired token and a tampered one',
    async (tag) => {
      // Every service has one, or this check would pass without calling anything.
      const op = protectedOps.find((o) => o?.tag === tag)
      expect(op, `${tag} has an operation to call`).toBeDefined()
      if (!op) return
      const payload = JSON.parse(
        Buffer.from(tokens.user.split('.')[1] ?? '', 'base64url').toString(),
      ) as object
      const stranger = await createTestKeys()
      const [h, , s] = tokens.user.split('.')
      const forged = [
        `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ...payload, role: 'admin' })}.`,
        await stranger.tokenFor('admin'),
        await keys.sign({ role: 'admin' }, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
        `${h}.${enc({ ...payload, role: 'admin' })}.${s}`,
      ]
      for (const token of forged) expect((await call(op, token)).statusCode).toBe(401)
      // The positive control: the genuine token of the same role gets past the check.
      expect(refused(await call(op, tokens.admin))).toBe(false)
    },
  )
})
