import { createContext, use } from 'react'
import type { SessionStatus, SessionUser } from '../../lib/session/session-slice.ts'
import type { SignInResume } from './sign-in-resume.ts'

export type AuthContextValue = {
  /** `restoring` until the start-up refresh has answered: decide nothing about access yet. */
  status: SessionStatus
  user: SessionUser | null
  isAdmin: boolean
  /** Opens the 'Unlock Premium Features' dialog. */
  openSignIn: () => void
  /**
   * Runs `action` now when signed in; otherwise opens the dialog and runs it right after a
   * successful sign-in (dropped if the dialog is closed). Waits for a session being restored.
   * `resume` keeps the user's draft across a redirect sign-in, which reloads the page: the page
   * gets it back through `useSignInResume(resume.key, …)`.
   */
  requireSignIn: (action: () => void, resume?: SignInResume) => void
  /** Signs out on the server, then reloads the page (spec §2, shared header). */
  signOut: () => Promise<void>
}

export const AuthContext = createContext<AuthContextValue | null>(null)

export function useAuth(): AuthContextValue {
  const value = use(AuthContext)
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>')
  return value
}
