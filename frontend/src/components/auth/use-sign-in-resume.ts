import { useEffect, useEffectEvent } from 'react'
import { useAppSelector } from '../../lib/store/index.ts'
import { selectSessionStatus } from '../../lib/session/session-slice.ts'
import { sessionStorageOrNothing, takeResume } from './sign-in-resume.ts'

/**
 * After a redirect sign-in started by `requireSignIn(action, { key, draft })`, hands the page its
 * draft back once the session is known: `signedIn` says whether to carry on with the action.
 */
export function useSignInResume(
  key: string,
  resume: (draft: string, outcome: { signedIn: boolean }) => void,
): void {
  const status = useAppSelector(selectSessionStatus)
  const onResume = useEffectEvent(resume)
  useEffect(() => {
    if (status === 'restoring') return
    const draft = takeResume(sessionStorageOrNothing(), key, Date.now())
    if (draft !== null) onResume(draft, { signedIn: status === 'signedIn' })
  }, [key, status])
}
