import { useEffect } from 'react'
import { useAppSelector } from '../store/index.ts'
import { useAnswerReviewsMutation } from '../api/generated.ts'
import { useSessionRecorder } from '../history/use-session-recorder.ts'
import { selectAccessToken, selectUser } from '../session/session-slice.ts'
import { sendReviewAnswers, unsentAnswers } from './review-outbox.ts'

/**
 * Sends what the signed-in user did offline, wherever they are in the app: when a session
 * with a token starts (also the one renewed when the network comes back) and on reconnect.
 */
export function useOutboxSync(): void {
  const userId = useAppSelector(selectUser)?.id ?? null
  const hasToken = useAppSelector(selectAccessToken) !== null
  const [answer] = useAnswerReviewsMutation()
  // Its own effect sends the waiting training sessions.
  useSessionRecorder()

  useEffect(() => {
    if (!userId || !hasToken) return
    const send = () => {
      if (unsentAnswers(userId) === 0) return
      void sendReviewAnswers(userId, (answers) => answer({ reviewAnswers: { answers } }))
    }
    send()
    window.addEventListener('online', send)
    return () => window.removeEventListener('online', send)
  }, [userId, hasToken, answer])
}
