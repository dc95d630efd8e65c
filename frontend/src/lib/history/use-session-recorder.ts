import { useCallback, useEffect, useRef } from 'react'
import { useAppSelector } from '../store/index.ts'
import { useRecordTrainingSessionMutation } from '../api/generated.ts'
import type { TrainingSessionRecord } from '../api/generated.ts'
import { newId, readOutbox, withoutSettled, writeOutbox } from '../outbox/outbox.ts'
import { selectUser } from '../session/session-slice.ts'

/** Shorter sessions (a click on Play and straight back) are not training. */
export const minimumSessionMs = 15_000

const outboxKey = (userId: string) => `crv.history.outbox.${userId}`

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

/**
 * Records a signed-in user's finished training sessions for their progress page: each goes to
 * an outbox in the browser first and is sent from there, now or when the network is back.
 */
export function useSessionRecorder() {
  const userId = useAppSelector(selectUser)?.id ?? null
  const [send] = useRecordTrainingSessionMutation()
  const sending = useRef(false)

  const flush = useCallback(async () => {
    if (!userId || sending.current) return
    sending.current = true
    try {
      const key = outboxKey(userId)
      for (const entry of readOutbox<TrainingSessionRecord>(storage(), key)) {
        const result = await send({ trainingSessionRecord: entry })
        // A refusal (4xx) will not change on a retry: drop it; a network failure waits.
        const status = result.error && 'status' in result.error ? result.error.status : null
        if (result.error && !(typeof status === 'number' && status >= 400 && status < 500)) break
        writeOutbox(storage(), key, withoutSettled(readOutbox(storage(), key), [entry.id]))
      }
    } finally {
      sending.current = false
    }
  }, [userId, send])

  useEffect(() => {
    if (!userId) return
    void flush()
    const online = () => void flush()
    window.addEventListener('online', online)
    return () => window.removeEventListener('online', online)
  }, [userId, flush])

  return useCallback(
    (session: Omit<TrainingSessionRecord, 'id'>) => {
      if (!userId || session.durationMs < minimumSessionMs) return
      const key = outboxKey(userId)
      const entry = {
        id: newId(),
        ...session,
        durationMs: Math.min(session.durationMs, 86_400_000),
      }
      writeOutbox(storage(), key, [...readOutbox(storage(), key), entry])
      void flush()
    },
    [userId, flush],
  )
}
