// Text the contract layer refuses for every service (packages/kit): NUL characters and unpaired
// surrogates anywhere in a path, query or body, and ids past their column's range. Each used to
// reach PostgreSQL and come back as a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

let h: Harness
let token: string
beforeAll(async () => {
  h = await harness()
  token = await h.keys.tokenFor('user')
})
afterAll(() => h.app.close())

const hostileText = ['a\u0000b', '\u0000', 'x\ud800', '\udc00y', 'ok\ud83d']

describe('text the contract refuses', () => {
  it('refuses a NUL or an unpaired surrogate in a descriptor word, naming the field', async () => {
    for (const word of hostileText) {
      const res = await h.as(token).post('/api/descriptors', { word, language: 'en', gestaltId: 1 })
      expect(res.statusCode, JSON.stringify(word)).toBe(400)
      expect(res.json().error).toMatchObject({ code: 'invalid_text' })
      expect(res.json().error.message).toContain('/word')
    }
  })

  it('refuses them in analytics paths and properties', async () => {
    for (const bad of hostileText) {
      for (const event of [
        { name: 'page_view', path: `/a${bad}` },
        { name: 'page_view', path: '/a', props: { category: bad } },
        { name: 'page_view', path: '/a', props: { [`k${bad}`]: 'v' } },
      ]) {
        const res = await h.as(null).post('/api/events', { events: [event] })
        expect(res.statusCode, JSON.stringify(event)).toBe(400)
      }
    }
  })

  it('refuses them in a query string', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/descriptors/bulk?language=en&userId=${encodeURIComponent('u\u0000')}`,
    })
    expect(res.statusCode).toBe(400)
  })

  it('keeps well-formed text of every plane: accents, CJK, combining marks and emoji', async () => {
    for (const word of ['Stra\u00dfe', '\u6c34', 'e\u0301t\u00e9', '\ud83c\udf0a wave']) {
      const res = await h.as(token).post('/api/descriptors', { word, language: 'en', gestaltId: 1 })
      expect([201, 409], JSON.stringify(word)).toContain(res.statusCode)
    }
  })

  it('refuses a gestalt id past the 32-bit column with 400, not a database error', async () => {
    for (const gestaltId of [2147483648, 9007199254740991]) {
      const res = await h.as(token).post('/api/descriptors', {
        word: 'granite',
        language: 'en',
        gestaltId,
      })
      expect(res.statusCode, String(gestaltId)).toBe(400)
    }
  })
})
