import type { ReviewCard, ReviewRating } from '../../lib/api/generated.ts'

/**
 * The four answers in key order: 1 Again, 2 Hard, 3 Good, 4 Easy (their names are in the
 * catalogue: descriptors `review.ratings.<rating>`).
 */
export const ratings = [
  { rating: 'again', key: '1' },
  { rating: 'hard', key: '2' },
  { rating: 'good', key: '3' },
  { rating: 'easy', key: '4' },
] as const satisfies readonly { rating: ReviewRating; key: string }[]

/** A card answered Again comes back in this session when it is due within this time. */
export const sessionSpanMs = 20 * 60_000

/** The unit a review button states its interval in (`review.interval.<unit>` in the catalogue). */
export type IntervalUnit = 'underAMinute' | 'minutes' | 'hours' | 'days' | 'months' | 'years'

/**
 * How long until `to`, as a review button shows it: in English '<1m', '10m', '3h', '4d', '2mo',
 * '1.5y' (the words are the catalogue's, in the interface language).
 */
export function reviewInterval(
  fromIso: string,
  toIso: string,
): { unit: IntervalUnit; count: number } {
  const minutes = (Date.parse(toIso) - Date.parse(fromIso)) / 60_000
  if (minutes < 1) return { unit: 'underAMinute', count: 0 }
  if (minutes < 60) return { unit: 'minutes', count: Math.round(minutes) }
  const hours = minutes / 60
  if (hours < 24) return { unit: 'hours', count: Math.round(hours) }
  const days = hours / 24
  if (days < 30) return { unit: 'days', count: Math.round(days) }
  if (days < 365) return { unit: 'months', count: Math.round(days / 30) }
  return { unit: 'years', count: Math.round((days / 365) * 10) / 10 }
}

/** The start of the user's day in their own time zone, for the day's new-word count. */
export function startOfLocalDay(now = new Date()): string {
  const start = new Date(now)
  start.setHours(0, 0, 0, 0)
  return start.toISOString()
}

/**
 * The queue after answering its first card: Again on a card that is due again within the
 * session puts it back at the end; any other answer takes it off.
 */
export function afterAnswer(cards: readonly ReviewCard[], rating: ReviewRating): ReviewCard[] {
  const [current, ...rest] = cards
  if (!current) return []
  const back = Date.parse(current.next.again) - Date.parse(new Date().toISOString())
  return rating === 'again' && back <= sessionSpanMs ? [...rest, current] : rest
}

/** Where the cards left of a user's review in a language are kept for an offline start. */
export const savedCardsKey = (userId: string, language: string) =>
  `crv.reviews.cards.${userId}.${language}`

type CardStorage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

export function readCards(storage: CardStorage | null | undefined, key: string): ReviewCard[] {
  try {
    const raw = storage?.getItem(key)
    const cards: unknown = raw ? JSON.parse(raw) : []
    return Array.isArray(cards) ? (cards as ReviewCard[]) : []
  } catch {
    return []
  }
}

export function writeCards(
  storage: CardStorage | null | undefined,
  key: string,
  cards: readonly ReviewCard[],
): void {
  try {
    if (cards.length === 0) storage?.removeItem(key)
    else storage?.setItem(key, JSON.stringify(cards))
  } catch {
    // Storage full or refused: an offline review then has nothing to show.
  }
}
