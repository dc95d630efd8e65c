import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReviewAnswer, ReviewResults } from '../api/generated.ts'
import { reviewOutboxKey, sendReviewAnswers, unsentAnswers } from './review-outbox.ts'

/** The page's storage and events, as the browser gives them (this runs under Node). */
beforeEach(() => {
  const items = new Map<string, string>()
  Object.assign(globalThis, {
    window: {
      localStorage: {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => void items.set(k, v),
        removeItem: (k: string) => void items.delete(k),
      },
      dispatchEvent: () => true,
    },
  })
})
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'window')
})

const answer = (id: string, answeredAt: string) =>
  ({ id, descriptorId: 1, grade: 'good', answeredAt }) as unknown as ReviewAnswer

const refusal = (latest: string) => ({
  error: {
    status: 400,
    data: {
      error: {
        code: 'answered_at_out_of_range',
        message: 'out of range',
        details: { earliest: '2026-01-01T00:00:00.000Z', latest, answers: [] },
      },
    },
  },
})

describe('the review outbox', () => {
  it('dates answers of a fast device clock at the server’s latest time and sends them, dropping impossible ones', async () => {
    const key = reviewOutboxKey('u1')
    const latest = '2026-11-27T12:05:00.000Z'
    window.localStorage.setItem(
      key,
      JSON.stringify([
        answer('a', '2026-11-27T12:00:00.000Z'),
        answer('b', '2026-11-27T12:40:00.000Z'),
        answer('c', '0001-01-01T00:00:00.000Z'),
      ]),
    )
    const sent: ReviewAnswer[][] = []
    const state = await sendReviewAnswers('u1', async (answers) => {
      sent.push(answers)
      if (sent.length === 1) return refusal(latest)
      return { data: { results: answers.map((a) => ({ id: a.id })) } as unknown as ReviewResults }
    })
    expect(sent).toHaveLength(2)
    expect(sent[1]?.map((a) => [a.id, a.answeredAt])).toEqual([
      ['a', '2026-11-27T12:00:00.000Z'],
      ['b', latest],
    ])
    expect(state).toMatchObject({ unsent: 0, reached: true })
    expect(unsentAnswers('u1')).toBe(0)
  })

  it('keeps every answer when the server refuses for another reason', async () => {
    const key = reviewOutboxKey('u2')
    window.localStorage.setItem(key, JSON.stringify([answer('a', '2026-11-27T12:00:00.000Z')]))
    const state = await sendReviewAnswers('u2', async () => ({ error: { status: 503 } }))
    expect(state).toMatchObject({ unsent: 1, reached: false })
  })
})
