import {
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query'
import {
  selectAccessToken,
  signedOut,
  tokenRefreshed,
  type SessionRootState,
  type SessionStarted,
} from '../session/session-slice.ts'

type AppBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>

export type BaseQueryOptions = {
  baseUrl?: string
  fetchFn?: typeof fetch
}

const refreshUrl = 'api/auth/refresh'

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
 * refresh cookie and retries. Concurrent 401s wait for the same refresh call.
 */
export function createBaseQuery({ baseUrl = '/', fetchFn }: BaseQueryOptions = {}): AppBaseQuery {
  const rawBaseQuery = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    ...(fetchFn ? { fetchFn } : {}),
    prepareHeaders: (headers, { getState }) => {
      const token = selectAccessToken(getState() as SessionRootState)
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
      return headers
    },
  })
  const refreshQuery = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    ...(fetchFn ? { fetchFn } : {}),
  })

  let refreshing: Promise<boolean> | null = null

  function refreshSession(api: BaseQueryApi): Promise<boolean> {
    refreshing ??= (async () => {
      try {
        const result = await refreshQuery({ url: refreshUrl, method: 'POST' }, api, {})
        if (isSessionStarted(result.data)) {
          api.dispatch(tokenRefreshed(result.data))
          return true
        }
        api.dispatch(signedOut())
        return false
      } finally {
        refreshing = null
      }
    })()
    return refreshing
  }

  return async (args, api, extraOptions) => {
    const sentToken = tokenIn(api)
    const result = await rawBaseQuery(args, api, extraOptions)
    if (result.error?.status !== 401) return result

    // Another request may have renewed the token while this one was in flight.
    const currentToken = tokenIn(api)
    const renewed =
      currentToken !== null && currentToken !== sentToken ? true : await refreshSession(api)
    if (!renewed) return result
    return rawBaseQuery(args, api, extraOptions)
  }
}
