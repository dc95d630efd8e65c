import { describe, expect, it } from 'vitest'
import { acceptedEncoding, decodeBody, encodeBody } from '../src/encoding.ts'

describe('acceptedEncoding', () => {
  const both = ['br', 'gzip'] as const
  it("takes the server's preference among what the client accepts", () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd', both)).toBe('br')
    expect(acceptedEncoding('gzip, deflate', both)).toBe('gzip')
    expect(acceptedEncoding('gzip, br', ['gzip'])).toBe('gzip')
  })
  it('sends identity without the header, for unknown codings and for q=0', () => {
    expect(acceptedEncoding(undefined, both)).toBeUndefined()
    expect(acceptedEncoding('', both)).toBeUndefined()
    expect(acceptedEncoding('deflate, zstd', both)).toBeUndefined()
    expect(acceptedEncoding('br;q=0, gzip;q=0', both)).toBeUndefined()
    expect(acceptedEncoding('br;q=0, gzip;q=0.5', both)).toBe('gzip')
    expect(acceptedEncoding('identity', both)).toBeUndefined()
  })
  it('reads * as any coding the header does not name', () => {
    expect(acceptedEncoding('*', both)).toBe('br')
    expect(acceptedEncoding('br;q=0, *', both)).toBe('gzip')
    expect(acceptedEncoding('*;q=0', both)).toBeUndefined()
    expect(acceptedEncoding('GZIP; Q=1', both)).toBe('gzip')
  })
})

describe('encodeBody', () => {
  const body = Buffer.from(
    JSON.stringify({ words: Array.from({ length: 500 }, (_, i) => `w${i % 50}`) }),
  )
  it.each([
    ['br', 'once'],
    ['br', 'each'],
    ['gzip', 'once'],
    ['gzip', 'each'],
  ] as const)('%s (%s) comes back whole and smaller', (coding, effort) => {
    const encoded = encodeBody(body, coding, effort)
    expect(encoded.length).toBeLessThan(body.length / 4)
    expect(decodeBody(encoded, coding).equals(body)).toBe(true)
  })
})
