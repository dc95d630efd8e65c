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

/** The accepted window of a refusal for answers dated outside it (a device clock gone wrong). */
function refusedWindow(error: unknown): { earliest: number; latest: number } | null {
  const body = (error as { data?: { error?: { code?: string; details?: unknown } } } | undefined)
    ?.data?.error
  if (body?.code !== 'answered_at_out_of_range') return null
  const details = body.details as { earliest?: string; latest?: string } | undefined
  const earliest = Date.parse(details?.earliest ?? '')
  const latest = Date.parse(details?.latest ?? '')
  return Number.isFinite(earliest) && Number.isFinite(latest) ? { earliest, latest } : null
}

/**
 * Answers a device dated ahead of the server's clock are dated at the latest time it accepts, so
 * one wrong clock never blocks the queue; answers dated before the service existed cannot be
 * real and are dropped. True if anything changed.
 */
function redated(key: string, window: { earliest: number; latest: number }): boolean {
  const waiting = readOutbox<ReviewAnswer>(storage(), key)
  let changed = false
  const kept = waiting.flatMap((a) => {
    const at = Date.parse(a.answeredAt)
    if (!(at >= window.earliest)) {
      changed = true
      return []
    }
    if (at <= window.latest) return [a]
    changed = true
    return [{ ...a, answeredAt: new Date(window.latest).toISOString() }]
  })
  if (changed) writeOutbox(storage(), key, kept)
  return changed
}

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
        const window = refusedWindow(result.error)
        if (window && redated(key, window)) continue
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
