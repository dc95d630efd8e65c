import { useEffect, useRef } from 'react'
import { useAppSelector, useAppStore } from '../store/index.ts'
import { useLocation } from 'react-router-dom'
import { selectAccessToken, selectSessionStatus } from '../session/session-slice.ts'
import { setAccessTokenSource, startAnalytics, trackPageView } from './index.ts'

/**
 * Reports a page view on every path change (spec §1), once the session is known so a signed-in
 * user's views carry their id. Events read the token when they are sent, not when recorded.
 */
export function usePageViews(): void {
  const { pathname } = useLocation()
  const status = useAppSelector(selectSessionStatus)
  const store = useAppStore()
  const lastPath = useRef<string | null>(null)

  useEffect(() => {
    setAccessTokenSource(() => selectAccessToken(store.getState()))
    startAnalytics()
  }, [store])

  useEffect(() => {
    // A change of session on the same page is not another view.
    if (status === 'restoring' || lastPath.current === pathname) return
    lastPath.current = pathname
    trackPageView(pathname)
  }, [pathname, status])
}
