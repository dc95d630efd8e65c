import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { bearerToken, MAX_AUTHORIZATION_LENGTH } from '../src/auth.ts'

const withAuthorization = (authorization: string) =>
  ({ headers: { authorization } }) as unknown as FastifyRequest

const jwt = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl'

describe('bearerToken', () => {
  it('reads the token after the Bearer scheme, whatever its case and spacing', () => {
    expect(bearerToken(withAuthorization(`Bearer ${jwt}`))).toBe(jwt)
    expect(bearerToken(withAuthorization(`bearer \t${jwt}`))).toBe(jwt)
    // Verification, not parsing, refuses a malformed bearer token (a 401, not anonymity).
    expect(bearerToken(withAuthorization('Bearer not-a-jwt'))).toBe('not-a-jwt')
    expect(bearerToken(withAuthorization('Bearer two words'))).toBeNull()
  })

  it('takes a raw compact JWS, as the spec client sends some, and nothing else raw', () => {
    expect(bearerToken(withAuthorization(jwt))).toBe(jwt)
    expect(bearerToken(withAuthorization('a.b.'))).toBe('a.b.')
    for (const header of ['a.b', 'a..c', '.b.c', 'a.b.c.d', 'a b.c.d', 'Basic dXNlcg==', 'a.b.c x'])
      expect(bearerToken(withAuthorization(header)), header).toBeNull()
  })

  it('answers at once for the header that froze a service (6,000 dots, a space, x)', () => {
    // The old pattern /^\S+\.\S+\.\S*$/ took ~30 s here; the test's own timeout catches a regression.
    expect(bearerToken(withAuthorization(`${'.'.repeat(6_000)} x`))).toBeNull()
    expect(bearerToken(withAuthorization(`${'a.'.repeat(2_000)}`))).toBeNull()
  })

  it('ignores an Authorization header longer than any token we issue', () => {
    const long = `${'a'.repeat(MAX_AUTHORIZATION_LENGTH)}.b.c`
    expect(bearerToken(withAuthorization(long))).toBeNull()
    expect(bearerToken(withAuthorization(`Bearer ${long}`))).toBeNull()
  })
})
