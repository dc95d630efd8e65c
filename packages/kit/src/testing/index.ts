import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose'
import type { JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import './provided.ts'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import { createApp } from '../service.ts'
import type { BaseConfig } from '../config.ts'
import { createTokenVerifier } from '../auth.ts'
import type { Role, TokenVerifier } from '../auth.ts'

export { endsAtImageEnd, HIDDEN, hiddenTextIn, taggedJpeg, taggedPng } from './tagged-images.ts'
export { unseenPicture } from './unseen-picture.ts'

export const testDatabaseUrl = (): string => inject('databaseUrl')
export const testRedisUrl = (): string | undefined => inject('redisUrl') || undefined

/** Environment for a service under test: quiet, contract-checked responses. */
export function testEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    VALIDATE_RESPONSES: 'true',
    // Each app under test writes its files (keys, objects) into a folder of its own.
    DATA_DIR: mkdtempSync(join(tmpdir(), 'crv-test-data-')),
    ...extra,
  }
}

export interface TestKeys {
  jwks: { keys: JWK[] }
  verifyToken: TokenVerifier
  sign(
    claims: { sub?: string; role?: Role | string; name?: string },
    options?: { expiresIn?: string | number; kid?: string },
  ): Promise<string>
  /** A token as the auth service would issue it for a new user of the given role. */
  tokenFor(role: Role, sub?: string): Promise<string>
}

/** A real EdDSA key pair and JWKS, as the auth service publishes them. */
export async function createTestKeys(
  issuer = 'crv-training',
  audience = 'crv-training',
): Promise<TestKeys> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', {
    crv: 'Ed25519',
    extractable: true,
  })
  const kid = randomUUID()
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' }
  const jwks = { keys: [jwk] }
  const verifyToken = createTokenVerifier({ keys: createLocalJWKSet(jwks), issuer, audience })
  const sign: TestKeys['sign'] = async (claims, options = {}) =>
    new SignJWT({ role: claims.role, name: claims.name })
      .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? kid })
      .setSubject(claims.sub ?? randomUUID())
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '15m')
      .sign(privateKey)
  return {
    jwks,
    verifyToken,
    sign,
    tokenFor: (role, sub) => sign({ role, sub: sub ?? randomUUID(), name: 'Test' }),
  }
}

/**
 * Builds a service app as its server.ts would, with test keys in place of the auth service's
 * JWKS and the given environment on top of the test defaults.
 */
export async function buildTestService<C, A extends FastifyInstance = FastifyInstance>(
  plugin: FastifyPluginAsync<{ config: C; verifyToken?: TokenVerifier }>,
  load: (source: NodeJS.ProcessEnv) => C & BaseConfig,
  env: Record<string, string | undefined> = {},
  /** Keys shared with other services under test (as one auth service signs for all). */
  shared?: TestKeys,
): Promise<{ app: A; keys: TestKeys; config: C }> {
  const keys = shared ?? (await createTestKeys())
  const config = load(testEnv(env))
  const app = createApp(config)
  await app.register(plugin, { config, verifyToken: keys.verifyToken })
  await app.ready()
  return { app: app as unknown as A, keys, config }
}

/**
 * What every service must do from its first day: be live, be ready with its dependencies, and
 * answer an unknown route in the error shape. Each service's own test file runs this suite.
 */
export function describeServiceBasics<C>(
  name: string,
  plugin: FastifyPluginAsync<{ config: C; verifyToken?: TokenVerifier }>,
  load: (source: NodeJS.ProcessEnv) => C & BaseConfig,
  env: () => Record<string, string | undefined> = () => ({}),
): void {
  describe(`${name} service basics`, () => {
    let app: FastifyInstance
    let adminToken: string
    beforeAll(async () => {
      const built = await buildTestService(plugin, load, env())
      app = built.app
      adminToken = await built.keys.tokenFor('admin')
    })
    afterAll(() => app.close())

    it('is live and ready', async () => {
      expect((await app.inject('/health')).json()).toMatchObject({ status: 'ok', service: name })
      const ready = await app.inject('/ready')
      expect(ready.statusCode).toBe(200)
      expect(ready.json().status).toBe('ready')
    })

    it('answers an unknown route with 404 in the error shape', async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/${name}/no-such-call`,
        headers: { authorization: `Bearer ${adminToken}` },
      })
      expect(res.statusCode).toBe(404)
      expect(res.json().error.code).toBe('not_found')
    })
  })
}
