import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import { api } from '../../lib/api/generated.ts'
import { selectIsAdmin, selectSessionStatus, selectUser } from '../../lib/session/session-slice.ts'
import { useAppDispatch, useAppSelector, useAppStore } from '../../lib/store/index.ts'
import { whenSessionKnown } from '../../lib/session/when-session-known.ts'
import { rememberUser } from '../../lib/session/remembered-user.ts'
import { clearPrivateCaches } from '../../lib/account/private-caches.ts'
import { dropSavedDrafts } from '../../lib/offline/draft-store.ts'
import { useToast } from '../toast/use-toast.ts'
import { AuthContext, type AuthContextValue } from './auth-context.ts'
import { errorToast, signInText } from './sign-in-messages.ts'
import { saveResume, sessionStorageOrNothing, type SignInResume } from './sign-in-resume.ts'

const loadSignInDialog = () => import('./sign-in-dialog.tsx')
const SignInDialog = lazy(loadSignInDialog)

/** Fetches the dialog's code ahead of the click (on hover or focus of 'Sign In'). */
export function preloadSignInDialog(): void {
  void loadSignInDialog()
}

type PendingSignIn = { action: () => void; resume: SignInResume | undefined }

type DialogState = {
  open: boolean
  /** Counts openings: each one starts a fresh flow at 'select' with empty fields. */
  round: number
}

/** The session as the app sees it, and the one sign-in dialog. Mount inside the store provider. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const store = useAppStore()
  const dispatch = useAppDispatch()
  const status = useAppSelector(selectSessionStatus)
  const user = useAppSelector(selectUser)
  const isAdmin = useAppSelector(selectIsAdmin)
  const { toast } = useToast()
  const [dialog, setDialog] = useState<DialogState>({ open: false, round: 0 })
  // Read and written only in event handlers, never while rendering.
  const pending = useRef<PendingSignIn | null>(null)

  const openDialog = useCallback((next: PendingSignIn | null) => {
    pending.current = next
    setDialog((current) => (current.open ? current : { open: true, round: current.round + 1 }))
  }, [])

  const openSignIn = useCallback(() => openDialog(null), [openDialog])

  const requireSignIn = useCallback(
    (action: () => void, resume?: SignInResume) => {
      whenSessionKnown(store, (status) => {
        if (status === 'signedIn') action()
        else openDialog({ action, resume })
      })
    },
    [store, openDialog],
  )

  const closeDialog = useCallback(() => {
    pending.current = null
    setDialog((current) => ({ ...current, open: false }))
  }, [])

  const completeSignIn = useCallback(() => {
    const done = pending.current
    pending.current = null
    setDialog((current) => ({ ...current, open: false }))
    done?.action()
  }, [])

  const keepDraftForRedirect = useCallback(() => {
    const resume = pending.current?.resume
    if (resume) saveResume(sessionStorageOrNothing(), resume, Date.now())
  }, [])

  const signOut = useCallback(async () => {
    const result = await dispatch(api.endpoints.signOut.initiate({}))
    // 401 means there was no session left to end, which is what the user asked for.
    if (result.error && !('status' in result.error && result.error.status === 401)) {
      toast(errorToast(signInText('signOutFailed')))
      return
    }
    // Not remembered for an offline start any more, and nothing of theirs left for the next
    // person at this browser to read from the service worker's copies or the saved drafts.
    rememberUser(null)
    await Promise.all([clearPrivateCaches(), dropSavedDrafts()])
    // The reload starts the app afresh, signed out; until it lands the header keeps its spinner.
    window.location.reload()
  }, [dispatch, toast])

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, isAdmin, openSignIn, requireSignIn, signOut }),
    [status, user, isAdmin, openSignIn, requireSignIn, signOut],
  )

  return (
    <AuthContext value={value}>
      {children}
      {dialog.round > 0 ? (
        <Suspense fallback={null}>
          <SignInDialog
            open={dialog.open}
            round={dialog.round}
            onClose={closeDialog}
            onSignedIn={completeSignIn}
            onRedirecting={keepDraftForRedirect}
          />
        </Suspense>
      ) : null}
    </AuthContext>
  )
}
