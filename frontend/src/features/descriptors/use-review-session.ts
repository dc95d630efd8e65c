import i18next from 'i18next'
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
import { newId, readOutbox, writeOutbox } from '../../lib/outbox/outbox.ts'
import { outboxEvent, reviewOutboxKey, sendReviewAnswers } from '../../lib/offline/review-outbox.ts'
import type { OutboxState } from '../../lib/offline/review-outbox.ts'
import { afterAnswer, readCards, savedCardsKey, writeCards } from './review-queue.ts'

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

  /** Sends what the outbox holds; true when it is empty afterwards. */
  const flush = useCallback(async (): Promise<boolean> => {
    if (!userId) return true
    const state = await sendReviewAnswers(userId, (answers) =>
      sendAnswers({ reviewAnswers: { answers } }),
    )
    return state.unsent === 0
  }, [userId, sendAnswers])

  // However the answers were sent (here, or by the app on reconnect), the count follows.
  useEffect(() => {
    const follow = (event: Event) => {
      const state = (event as CustomEvent<OutboxState>).detail
      if (state.userId !== userId) return
      setSession((s) => ({ ...s, unsent: state.unsent, offline: !state.reached }))
    }
    window.addEventListener(outboxEvent, follow)
    return () => window.removeEventListener(outboxEvent, follow)
  }, [userId])

  // The cards left, kept on the device per user and language: a review opened offline goes on
  // with them (answers wait in the outbox).
  const language = useRef<string>('en')
  const keep = useCallback(
    (cards: ReviewCard[]) => {
      if (userId)
        writeCards(localStorageOrNothing(), savedCardsKey(userId, language.current), cards)
    },
    [userId],
  )

  const load = useCallback(async () => {
    setSession((s) => ({ ...s, open: true, loading: true, problem: null, revealed: false }))
    // The server must know today's answers before it says what is due.
    const sent = await flush()
    const request = buildRequest()
    language.current = request.language
    const result = await getQueue({ reviewQueueRequest: request })
    shownAt.current = performance.now()
    const offline =
      result.error && 'status' in result.error && result.error.status === 'FETCH_ERROR'
    const saved =
      offline && userId
        ? readCards(localStorageOrNothing(), savedCardsKey(userId, request.language))
        : []
    if (result.data) keep(result.data.cards)
    setSession((s) => {
      if (!s.open) return s
      if (offline && saved.length > 0)
        return { ...s, loading: false, offline: true, cards: saved, problem: null }
      if (result.error)
        return {
          ...s,
          loading: false,
          offline: !sent || s.offline || Boolean(offline),
          problem:
            s.cards.length > 0
              ? null
              : errorMessage(result.error, i18next.t('descriptors:review.loadFailed')),
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
  }, [buildRequest, flush, getQueue, keep, userId])

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
      keep(rest)
      shownAt.current = performance.now()
      setSession((s) => ({ ...s, cards: rest, revealed: false, unsent: outbox.length }))
      // The last card of the batch: ask for more once the answers are in.
      if (rest.length === 0) void load()
      else void flush()
    },
    [session.cards, session.revealed, session.loading, userId, flush, load, keep],
  )

  const end = useCallback(() => {
    setSession((s) => ({ ...closed, unsent: s.unsent, offline: s.offline }))
  }, [])

  return { session, start, reveal, answer, end }
}
