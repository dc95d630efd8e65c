import { IntlMessageFormat } from 'intl-messageformat'
import { describe, expect, it } from 'vitest'
import english from '../../locales/en/descriptors.json'
import type { ReviewAnswer, ReviewCard } from '../../lib/api/generated.ts'
import { newId, readOutbox, withoutSettled, writeOutbox } from '../../lib/outbox/outbox.ts'
import { reviewOutboxKey } from '../../lib/offline/review-outbox.ts'
import { afterAnswer, reviewInterval } from './review-queue.ts'

const at = '2026-11-25T10:00:00.000Z'
const plus = (ms: number) => new Date(Date.parse(at) + ms).toISOString()

/** The interval as the English interface shows it, from the catalogue's message. */
function intervalLabel(fromIso: string, toIso: string): string {
  const { unit, count } = reviewInterval(fromIso, toIso)
  return String(new IntlMessageFormat(english.review.interval[unit], 'en').format({ count }))
}

describe('review intervals', () => {
  it('reads as a review button shows them', () => {
    expect(intervalLabel(at, plus(20_000))).toBe('<1m')
    expect(intervalLabel(at, plus(10 * 60_000))).toBe('10m')
    expect(intervalLabel(at, plus(3 * 3_600_000))).toBe('3h')
    expect(intervalLabel(at, plus(4 * 86_400_000))).toBe('4d')
    expect(intervalLabel(at, plus(62 * 86_400_000))).toBe('2mo')
    expect(intervalLabel(at, plus(548 * 86_400_000))).toBe('1.5y')
  })
})

function card(id: number, againInMs: number): ReviewCard {
  const soon = new Date(Date.now() + againInMs).toISOString()
  return {
    descriptor: {
      id,
      word: `w${id}`,
      language: 'de',
      gestaltId: 1,
      perceptionId: null,
      createdBy: null,
      isCustom: false,
      status: 'system',
      hidden: false,
      createdAt: at,
    },
    gloss: null,
    schedule: {
      state: 'new',
      due: null,
      stability: 0,
      difficulty: 0,
      reps: 0,
      lapses: 0,
      lastReview: null,
    },
    next: { again: soon, hard: soon, good: soon, easy: soon },
  }
}

describe('the session queue', () => {
  it('puts a card answered Again back at the end when it is due again within the session', () => {
    const cards = [card(1, 60_000), card(2, 60_000), card(3, 60_000)]
    expect(afterAnswer(cards, 'again').map((c) => c.descriptor.id)).toEqual([2, 3, 1])
    expect(afterAnswer(cards, 'good').map((c) => c.descriptor.id)).toEqual([2, 3])
    // Relearning a week-old card that comes back in a day: not in this session.
    expect(
      afterAnswer([card(4, 86_400_000), card(5, 0)], 'again').map((c) => c.descriptor.id),
    ).toEqual([5])
    expect(afterAnswer([], 'good')).toEqual([])
  })
})

describe('the outbox of answers not yet sent', () => {
  const memory = () => {
    const items = new Map<string, string>()
    return {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
      items,
    }
  }
  const answer = (id: string): ReviewAnswer => ({
    id,
    descriptorId: 1,
    rating: 'good',
    answeredAt: at,
  })

  it('keeps each user’s answers apart, survives a reload and forgets what the server settled', () => {
    const storage = memory()
    writeOutbox(storage, reviewOutboxKey('u1'), [answer('a'), answer('b')])
    writeOutbox(storage, reviewOutboxKey('u2'), [answer('c')])
    expect(readOutbox<ReviewAnswer>(storage, reviewOutboxKey('u1')).map((a) => a.id)).toEqual([
      'a',
      'b',
    ])
    const left = withoutSettled(readOutbox<ReviewAnswer>(storage, reviewOutboxKey('u1')), ['a'])
    writeOutbox(storage, reviewOutboxKey('u1'), left)
    expect(readOutbox<ReviewAnswer>(storage, reviewOutboxKey('u1')).map((a) => a.id)).toEqual(['b'])
    writeOutbox(storage, reviewOutboxKey('u1'), [])
    expect(storage.items.has('crv.reviews.outbox.u1')).toBe(false)
    expect(readOutbox(storage, reviewOutboxKey('u2'))).toHaveLength(1)
  })

  it('makes answer ids the server accepts, also without crypto.randomUUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(newId()).toMatch(uuid)
    const original = crypto.randomUUID
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true })
    try {
      const ids = new Set(Array.from({ length: 100 }, () => newId()))
      expect(ids.size).toBe(100)
      for (const id of ids) expect(id).toMatch(uuid)
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true })
    }
  })

  it('reads damaged or missing storage as empty', () => {
    const storage = memory()
    storage.setItem('crv.reviews.outbox.u1', '{not json')
    expect(readOutbox<ReviewAnswer>(storage, reviewOutboxKey('u1'))).toEqual([])
    expect(readOutbox(null, reviewOutboxKey('u1'))).toEqual([])
  })
})
