import { api } from '../../lib/api/generated.ts'
import type { AppDispatch } from '../../lib/store/index.ts'
import { toastAdded } from '../../lib/toast/toast-slice.ts'
import { readRedirectResult } from './redirect-result.ts'
import { socialFailure } from './sign-in-messages.ts'

/**
 * Runs once when the app starts, before the router reads the URL: reports a failed redirect
 * sign-in (and takes `authError` out of the address) and restores the session from the refresh
 * cookie, which also picks up a successful redirect sign-in.
 */
export function startSession(dispatch: AppDispatch): void {
  const { authError, cleanUrl } = readRedirectResult(window.location.href)
  if (cleanUrl !== null) window.history.replaceState(window.history.state, '', cleanUrl)
  if (authError !== null) dispatch(toastAdded(socialFailure(authError)))
  void dispatch(api.endpoints.refreshSession.initiate({}))
  // Opened offline: the session is renewed as soon as the network is back.
  window.addEventListener('online', () => {
    void dispatch(api.endpoints.refreshSession.initiate({}))
  })
}
