import type { ReviewAnswer, ReviewResults } from '../api/generated.ts'
import { readOutbox, withoutSettled, writeOutbox } from '../outbox/outbox.ts'

/** Where a user's unsent review answers wait. */
export const reviewOutboxKey = (userId: string) => `crv.reviews.outbox.${userId}`

/** Sent after every attempt, so any open review shows how many answers still wait. */
export const outboxEvent = 'crv:review-outbox'
export type OutboxState = { userId: string; unsent: number; reached: boolean }

type Send = (answers: ReviewAnswer[]) => Promise<{ data?: ReviewResults; error?: unknown }>

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

let inFlight: Promise<OutboxState> | null = null

/**
 * Sends the user's waiting answers (500 at a time) and keeps what the server did not record.
 * One attempt at a time for the whole page; a caller arriving meanwhile shares it.
 */
export function sendReviewAnswers(userId: string, send: Send): Promise<OutboxState> {
  inFlight ??= (async () => {
    const key = reviewOutboxKey(userId)
    let reached = true
    for (;;) {
      const waiting = readOutbox<ReviewAnswer>(storage(), key)
      if (waiting.length === 0) break
      const result = await send(waiting.slice(0, 500))
      if (!result.data) {
        reached = false
        break
      }
      // Answers given while these were on their way stay in the outbox.
      const settled = result.data.results.map((r) => r.id)
      writeOutbox(storage(), key, withoutSettled(readOutbox(storage(), key), settled))
      if (settled.length === 0) break
    }
    const state = { userId, unsent: readOutbox(storage(), key).length, reached }
    window.dispatchEvent(new CustomEvent<OutboxState>(outboxEvent, { detail: state }))
    return state
  })().finally(() => {
    inFlight = null
  })
  return inFlight
}

export function unsentAnswers(userId: string): number {
  return readOutbox(storage(), reviewOutboxKey(userId)).length
}
