// Every operation of the contract, called as an anonymous visitor, a user and an administrator,
// against the service that owns it: access is decided by each service from the verified token.
// Generated from the contract, so an operation is covered the day it is added.
import { randomUUID } from 'node:crypto'
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

type Plugin = FastifyPluginAsync<{ config: BaseConfig; verifyToken?: TokenVerifier }>
const services: Record<string, [Plugin, (env: NodeJS.ProcessEnv) => BaseConfig]> = {
  auth: [authApp as Plugin, loadAuthConfig],
  descriptors: [descriptorsApp as Plugin, loadDescriptorsConfig],
  media: [mediaApp as Plugin, loadMediaConfig],
  ai: [aiApp as Plugin, loadAiConfig],
  astro: [astroApp as Plugin, loadAstroConfig],
}

const apps: Record<string, FastifyInstance> = {}
let keys: TestKeys
let tokens: { user: string; admin: string }

beforeAll(async () => {
  // One key pair for every service, as in production (one auth service signs for all).
  keys = await createTestKeys()
  for (const [name, [plugin, load]] of Object.entries(services)) {
    apps[name] = (
      await buildTestService(plugin, load, { DATABASE_URL: testDatabaseUrl() }, keys)
    ).app
  }
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

describe.each(ops.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', (_name, op) => {
  it(`as a visitor: ${op.access === 'public' ? 'allowed' : '401'}`, async () => {
    const res = await call(op)
    if (op.access === 'public') expect(refused(res)).toBe(false)
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
    } else expect(refused(res)).toBe(false)
  })

  it('as an administrator: allowed', async () => {
    const res = await call(op, tokens.admin)
    expect(refused(res)).toBe(false)
  })
})

describe('forged tokens, refused by every service', () => {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const protectedOps = Object.keys(services).map((tag) =>
    ops.find((op) => op.tag === tag && op.access !== 'public'),
  )

  it.each(Object.keys(services))(
    '%s refuses alg:none, another key, an expired token and a tampered one',
    async (tag) => {
      const op = protectedOps.find((o) => o?.tag === tag)
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
    },
  )
})
