import {
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query'
import i18next from 'i18next'
import { rememberedUser, rememberUser } from '../session/remembered-user.ts'
import {
  restoredOffline,
  selectAccessToken,
  selectUser,
  signedOut,
  tokenRefreshed,
  type SessionRootState,
  type SessionStarted,
} from '../session/session-slice.ts'

type AppBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>
type RefreshResult = Awaited<ReturnType<AppBaseQuery>>

export type BaseQueryOptions = {
  baseUrl?: string
  fetchFn?: typeof fetch
  /** Whether a session may exist: the auth service's readable `crv_session` marker cookie. */
  mayHaveSession?: () => boolean
  /** Waits before a refresh that got no answer is sent again (milliseconds, one per retry). */
  refreshRetryDelays?: readonly number[]
}

/**
 * A refresh that got no answer may have reached the server, which rotated the cookie: the old
 * one is then taken back once, for a few seconds (the auth service's grace period, 10 s), so
 * it is sent again soon, twice, while the browser is online.
 */
const REFRESH_RETRY_DELAYS = [1_000, 3_000]

/**
 * Runs one refresh at a time across this browser's tabs (where the browser has Web Locks): a
 * tab's refresh after another's then sends the cookie that one got, not the one it replaced.
 */
async function oneRefreshAtATime<T>(refresh: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  if (!locks) return refresh()
  let answer: T | undefined
  await locks.request('crv-refresh', async () => {
    answer = await refresh()
  })
  return answer as T
}

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false

/** The marker the auth service sets beside the httpOnly refresh cookie (no secret in it). */
export function sessionMarkerPresent(): boolean {
  return typeof document !== 'undefined' && /(?:^|;\s*)crv_session=1(?:;|$)/.test(document.cookie)
}

/** What the server would answer without a session, answered without asking it. */
const noSession = (): RefreshResult => ({
  error: {
    status: 401,
    data: { error: { code: 'no_session', message: i18next.t('common:errors.notSignedIn') } },
  },
})

const refreshPath = 'api/auth/refresh'

/**
 * The request without its unset query parameters, and without `params` when none is left: the
 * generated endpoints pass every optional one, set or not, and fetchBaseQuery would ask
 * `/api/practice/stats?` for an empty set.
 */
function withoutUnsetParams(args: string | FetchArgs): string | FetchArgs {
  if (typeof args === 'string' || !args.params) return args
  const params = Object.fromEntries(Object.entries(args.params).filter(([, v]) => v !== undefined))
  const { params: _all, ...rest } = args
  return Object.keys(params).length > 0 ? { ...rest, params } : rest
}

function pathOf(args: string | FetchArgs): string {
  const url = typeof args === 'string' ? args : args.url
  return url.replace(/^\/+/, '').split(/[?#]/, 1)[0] ?? ''
}

// The sign-in calls answer 401 only for their own reasons (no session, wrong cookie), never for an
// expired access token, so renewing the session and retrying would be wrong for them.
function renewsOnUnauthorized(path: string): boolean {
  return !path.startsWith('api/auth/') || path === 'api/auth/me'
}

function tokenIn(api: Pick<BaseQueryApi, 'getState'>): string | null {
  return selectAccessToken(api.getState() as SessionRootState)
}

function isSessionStarted(value: unknown): value is SessionStarted {
  if (typeof value !== 'object' || value === null) return false
  const body = value as Partial<Record<keyof SessionStarted, unknown>>
  return typeof body.accessToken === 'string' && typeof body.user === 'object' && body.user !== null
}

/**
 * Sends the access token as a bearer header and, on a 401, renews the session once through the
 * refresh cookie and retries. Every refresh (these, the one on start-up, the one after a popup
 * sign-in) shares one call in flight: the server rotates the cookie on each use and treats a
 * second use of the old one as theft.
 */
export function createBaseQuery({
  baseUrl = '/',
  fetchFn,
  mayHaveSession = sessionMarkerPresent,
  refreshRetryDelays = REFRESH_RETRY_DELAYS,
}: BaseQueryOptions = {}): AppBaseQuery {
  const rawBaseQuery = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    ...(fetchFn ? { fetchFn } : {}),
    prepareHeaders: (headers, { getState }) => {
      const token = selectAccessToken(getState() as SessionRootState)
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
      // Keys the service worker's offline copies per user; the server never reads it.
      const user = selectUser(getState() as SessionRootState)
      if (user) headers.set('x-crv-user', user.id)
      return headers
    },
  })
  const refreshQuery = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    ...(fetchFn ? { fetchFn } : {}),
  })

  let refreshing: Promise<RefreshResult> | null = null

  function refreshSession(api: BaseQueryApi): Promise<RefreshResult> {
    // A visitor has no session to renew: asking would only log a 401 on every page load.
    if (!refreshing && !mayHaveSession()) {
      api.dispatch(signedOut())
      return Promise.resolve(noSession())
    }
    refreshing ??= (async () => {
      try {
        // Not the caller's abort signal: others may be waiting for this call.
        const shared = { ...api, signal: new AbortController().signal }
        const send = () => refreshQuery({ url: refreshPath, method: 'POST' }, shared, {})
        const result = await oneRefreshAtATime(async () => {
          let answer = await send()
          for (const delay of refreshRetryDelays) {
            if (answer.error?.status !== 'FETCH_ERROR' || !online()) break
            await new Promise((resolve) => setTimeout(resolve, delay))
            answer = await send()
          }
          return answer
        })
        if (isSessionStarted(result.data)) {
          api.dispatch(tokenRefreshed(result.data))
          return result
        }
        // No network: the user this browser knew trains on, offline, until it is back.
        const known = result.error?.status === 'FETCH_ERROR' ? rememberedUser() : null
        if (known) {
          if (selectUser(api.getState() as SessionRootState)?.id !== known.id)
            api.dispatch(restoredOffline(known))
          return result
        }
        api.dispatch(signedOut())
        if (result.error?.status !== 'FETCH_ERROR') rememberUser(null)
        return result
      } finally {
        refreshing = null
      }
    })()
    return refreshing
  }

  return async (request, api, extraOptions) => {
    const args = withoutUnsetParams(request)
    const path = pathOf(args)
    if (path === refreshPath) return refreshSession(api)

    const sentToken = tokenIn(api)
    const result = await rawBaseQuery(args, api, extraOptions)
    if (result.error?.status !== 401 || !renewsOnUnauthorized(path)) return result

    // Another request may have renewed the token while this one was in flight.
    const currentToken = tokenIn(api)
    const renewed =
      currentToken !== null && currentToken !== sentToken
        ? true
        : isSessionStarted((await refreshSession(api)).data)
    if (!renewed) return result
    return rawBaseQuery(args, api, extraOptions)
  }
}
