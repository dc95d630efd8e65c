import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTokenVerifier } from '../src/index.ts'
import { createTestKeys } from '../src/testing/index.ts'
import type { TestKeys } from '../src/testing/index.ts'
import { freePort } from '../../../scripts/lib/ports.ts'

// The production path: keys fetched over HTTP from the auth service's JWKS and cached.
let keys: TestKeys
let fetches = 0
let url: URL
const server = createServer((_req, res) => {
  fetches += 1
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(keys.jwks))
})

beforeAll(async () => {
  keys = await createTestKeys()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth/jwks.json`)
})
afterAll(() => new Promise((r) => server.close(r)))

describe('remote JWKS', () => {
  it('fetches the key set once and verifies many tokens from the cache', async () => {
    const verify = createTokenVerifier({
      keys: url,
      issuer: 'crv-training',
      audience: 'crv-training',
    })
    const before = fetches
    for (let i = 0; i < 20; i++) {
      const user = await verify(await keys.tokenFor('user', `user-${i}`))
      expect(user).toEqual({ id: `user-${i}`, role: 'user', name: 'Test', sessionId: null })
    }
    expect(fetches - before).toBe(1)
  })

  it('refuses a token signed by a key the set does not hold', async () => {
    const verify = createTokenVerifier({
      keys: url,
      issuer: 'crv-training',
      audience: 'crv-training',
    })
    const stranger = await createTestKeys()
    await expect(verify(await stranger.tokenFor('admin'))).rejects.toMatchObject({
      statusCode: 401,
    })
  })

  it('refuses a token for another audience or issuer', async () => {
    const verify = createTokenVerifier({
      keys: url,
      issuer: 'crv-training',
      audience: 'crv-training',
    })
    const other = await createTestKeys('someone-else', 'crv-training')
    await expect(verify(await other.tokenFor('user'))).rejects.toMatchObject({ statusCode: 401 })
  })

  it('answers 503, not 401, while the key set cannot be fetched', async () => {
    const down = new URL(`http://127.0.0.1:${await freePort()}/api/auth/jwks.json`)
    const verify = createTokenVerifier({
      keys: down,
      issuer: 'crv-training',
      audience: 'crv-training',
    })
    await expect(verify(await keys.tokenFor('user'))).rejects.toMatchObject({
      statusCode: 503,
      code: 'auth_unavailable',
    })
  })
})
