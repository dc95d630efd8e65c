import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../lib/api/index.ts'
import type {
  ReviewAnswer,
  ReviewCard,
  ReviewQueueRequest,
  ReviewRating,
} from '../../lib/api/generated.ts'
import { useAnswerReviewsMutation, useGetReviewQueueMutation } from './api.ts'
import { localStorageOrNothing } from './languages.ts'
import { newId, readOutbox, withoutSettled, writeOutbox } from '../../lib/outbox/outbox.ts'
import { afterAnswer, reviewOutboxKey } from './review-queue.ts'

export type ReviewSession = {
  open: boolean
  loading: boolean
  /** The cards left in this session, the one on show first. */
  cards: ReviewCard[]
  revealed: boolean
  dueCount: number
  newCount: number
  /** Answers given but not yet recorded by the server (offline, or on their way). */
  unsent: number
  /** The last attempt to send answers failed: they wait for the network. */
  offline: boolean
  problem: string | null
}

const closed: ReviewSession = {
  open: false,
  loading: false,
  cards: [],
  revealed: false,
  dueCount: 0,
  newCount: 0,
  unsent: 0,
  offline: false,
  problem: null,
}

/**
 * A review session (FSRS on the server): due cards first, then new words of the chosen
 * categories; Show Answer, then Again / Hard / Good / Easy. Every answer goes to an outbox in
 * the browser first and is sent from there, so an answer given offline is sent when the
 * network is back, and one sent twice counts once.
 */
export function useReviewSession(userId: string | null, buildRequest: () => ReviewQueueRequest) {
  const [session, setSession] = useState<ReviewSession>(closed)
  const [getQueue] = useGetReviewQueueMutation()
  const [sendAnswers] = useAnswerReviewsMutation()
  const shownAt = useRef(0)
  const sending = useRef<Promise<boolean> | null>(null)

  /** Sends what the outbox holds; true when it is empty afterwards. */
  const flush = useCallback((): Promise<boolean> => {
    if (!userId) return Promise.resolve(true)
    if (sending.current) return sending.current
    const run = (async () => {
      const storage = localStorageOrNothing()
      const key = reviewOutboxKey(userId)
      const outbox = readOutbox<ReviewAnswer>(storage, key)
      if (outbox.length === 0) return true
      const result = await sendAnswers({ reviewAnswers: { answers: outbox.slice(0, 500) } })
      // Answers given while this one was on its way stay in the outbox.
      const left = result.data
        ? withoutSettled(
            readOutbox<ReviewAnswer>(storage, key),
            result.data.results.map((r) => r.id),
          )
        : readOutbox<ReviewAnswer>(storage, key)
      writeOutbox(storage, key, left)
      setSession((s) => ({ ...s, unsent: left.length, offline: !result.data }))
      return left.length === 0
    })()
    sending.current = run
    void run.finally(() => {
      sending.current = null
    })
    return run
  }, [userId, sendAnswers])

  const load = useCallback(async () => {
    setSession((s) => ({ ...s, open: true, loading: true, problem: null, revealed: false }))
    // The server must know today's answers before it says what is due.
    const sent = await flush()
    const result = await getQueue({ reviewQueueRequest: buildRequest() })
    shownAt.current = performance.now()
    setSession((s) => {
      if (!s.open) return s
      if (result.error)
        return {
          ...s,
          loading: false,
          offline: !sent || s.offline,
          problem: s.cards.length > 0 ? null : errorMessage(result.error, 'Failed to load reviews'),
        }
      return {
        ...s,
        loading: false,
        cards: result.data.cards,
        dueCount: result.data.dueCount,
        newCount: Math.min(result.data.newCount, result.data.cards.length),
        problem: null,
      }
    })
  }, [buildRequest, flush, getQueue])

  const start = useCallback(() => void load(), [load])

  const reveal = useCallback(() => {
    setSession((s) => (s.cards.length > 0 && !s.loading ? { ...s, revealed: true } : s))
  }, [])

  const answer = useCallback(
    (rating: ReviewRating) => {
      const current = session.cards[0]
      if (!userId || !current || !session.revealed || session.loading) return
      const storage = localStorageOrNothing()
      const key = reviewOutboxKey(userId)
      const outbox = [
        ...readOutbox<ReviewAnswer>(storage, key),
        {
          id: newId(),
          descriptorId: current.descriptor.id,
          rating,
          answeredAt: new Date().toISOString(),
          durationMs: Math.min(3_600_000, Math.round(performance.now() - shownAt.current)),
        },
      ]
      writeOutbox(storage, key, outbox)
      const rest = afterAnswer(session.cards, rating)
      shownAt.current = performance.now()
      setSession((s) => ({ ...s, cards: rest, revealed: false, unsent: outbox.length }))
      // The last card of the batch: ask for more once the answers are in.
      if (rest.length === 0) void load()
      else void flush()
    },
    [session.cards, session.revealed, session.loading, userId, flush, load],
  )

  const end = useCallback(() => {
    setSession((s) => ({ ...closed, unsent: s.unsent, offline: s.offline }))
  }, [])

  // Back online, or a page opened with answers left from an offline session: send them.
  useEffect(() => {
    if (!userId) return
    const unsent = readOutbox(localStorageOrNothing(), reviewOutboxKey(userId)).length
    if (unsent > 0) void flush()
    const online = () => void flush()
    window.addEventListener('online', online)
    return () => window.removeEventListener('online', online)
  }, [userId, flush])

  return { session, start, reveal, answer, end }
}
