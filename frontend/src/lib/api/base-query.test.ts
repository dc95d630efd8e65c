import { combineSlices, configureStore } from '@reduxjs/toolkit'
import { createApi } from '@reduxjs/toolkit/query'
import { describe, expect, it } from 'vitest'
import { sessionSlice, sessionStarted, type SessionUser } from '../session/session-slice.ts'
import { createBaseQuery } from './base-query.ts'

const ada: SessionUser = {
  id: 'u1',
  displayName: 'Ada Lovelace',
  firstName: 'Ada',
  photoUrl: null,
  role: 'user',
}

type Handler = (request: Request) => Response | Promise<Response>

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

const unauthorized = () => json(401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in' } })

/** A store whose api talks to `handler` instead of the network; records every request. */
function setup(handler: Handler, signedIn = true, marker = true, refreshRetryDelays = [0, 0]) {
  const requests: { path: string; authorization: string | null }[] = []
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init)
    requests.push({
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
    })
    return handler(request)
  }
  const api = createApi({
    baseQuery: createBaseQuery({
      baseUrl: 'http://crv.test/',
      fetchFn,
      mayHaveSession: () => marker,
      refreshRetryDelays,
    }),
    endpoints: (build) => ({
      thing: build.query<unknown, number>({ query: (n) => `api/things/${n}` }),
      refresh: build.mutation<unknown, undefined>({
        query: () => ({ url: '/api/auth/refresh', method: 'POST' }),
      }),
      verify: build.mutation<unknown, undefined>({
        query: () => ({ url: '/api/auth/phone/verify', method: 'POST', body: {} }),
      }),
    }),
  })
  const store = configureStore({
    reducer: combineSlices(sessionSlice, api),
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })
  if (signedIn) store.dispatch(sessionStarted({ accessToken: 'old-token', user: ada }))
  const fetchThing = (n: number) => store.dispatch(api.endpoints.thing.initiate(n))
  const refresh = () => store.dispatch(api.endpoints.refresh.initiate(undefined))
  const verify = () => store.dispatch(api.endpoints.verify.initiate(undefined))
  return { store, requests, fetchThing, refresh, verify }
}

function byBearer(token: string): Handler {
  return (request) =>
    request.headers.get('authorization') === `Bearer ${token}`
      ? json(200, { ok: true })
      : unauthorized()
}

describe('base query', () => {
  it('sends the access token as a bearer header', async () => {
    const { requests, fetchThing } = setup(() => json(200, { ok: true }))
    const result = await fetchThing(1)
    expect(result.data).toEqual({ ok: true })
    expect(requests).toEqual([{ path: '/api/things/1', authorization: 'Bearer old-token' }])
  })

  it('renews the session once on a 401 and retries with the new token', async () => {
    const things = byBearer('new-token')
    const { store, requests, fetchThing } = setup((request) =>
      new URL(request.url).pathname === '/api/auth/refresh'
        ? json(200, { accessToken: 'new-token', user: ada })
        : things(request),
    )
    const result = await fetchThing(1)

    expect(result.data).toEqual({ ok: true })
    expect(store.getState().session.accessToken).toBe('new-token')
    expect(requests.map((r) => r.path)).toEqual([
      '/api/things/1',
      '/api/auth/refresh',
      '/api/things/1',
    ])
    expect(requests[2]?.authorization).toBe('Bearer new-token')
  })

  it('lets concurrent 401s share one refresh call', async () => {
    let failures = 0
    let allFailed: () => void = () => undefined
    const threeFailed = new Promise<void>((resolve) => (allFailed = resolve))
    const things = byBearer('new-token')
    const { requests, fetchThing } = setup(async (request) => {
      if (new URL(request.url).pathname === '/api/auth/refresh') {
        await threeFailed
        return json(200, { accessToken: 'new-token', user: ada })
      }
      const response = await things(request)
      if (response.status === 401 && ++failures === 3) allFailed()
      return response
    })

    const results = await Promise.all([fetchThing(1), fetchThing(2), fetchThing(3)])

    expect(results.map((r) => r.data)).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(requests.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1)
  })

  it('signs out and returns the original 401 when the refresh fails', async () => {
    const { store, requests, fetchThing } = setup((request) =>
      new URL(request.url).pathname === '/api/auth/refresh'
        ? json(401, { error: { code: 'NO_SESSION', message: 'No session' } })
        : unauthorized(),
    )
    const result = await fetchThing(1)

    expect(result.error).toMatchObject({
      status: 401,
      data: { error: { code: 'UNAUTHENTICATED' } },
    })
    expect(store.getState().session).toEqual({ status: 'signedOut', accessToken: null, user: null })
    expect(requests.map((r) => r.path)).toEqual(['/api/things/1', '/api/auth/refresh'])
  })

  it('leaves other errors alone', async () => {
    const { requests, fetchThing } = setup(() =>
      json(403, { error: { code: 'FORBIDDEN', message: 'Administrators only' } }),
    )
    const result = await fetchThing(1)
    expect(result.error).toMatchObject({ status: 403 })
    expect(requests).toHaveLength(1)
  })

  it('sends no authorization header while signed out', async () => {
    const { requests, fetchThing } = setup(() => json(200, []), false)
    await fetchThing(1)
    expect(requests[0]?.authorization).toBeNull()
  })

  it('restores the session on start-up through the refresh cookie', async () => {
    const { store, requests, refresh } = setup(
      () => json(200, { accessToken: 'new-token', user: ada }),
      false,
    )
    expect(store.getState().session.status).toBe('restoring')
    const result = await refresh()
    expect(result.data).toMatchObject({ accessToken: 'new-token' })
    expect(store.getState().session).toMatchObject({ status: 'signedIn', user: ada })
    expect(requests).toEqual([{ path: '/api/auth/refresh', authorization: null }])
  })

  it('sends a refresh that got no answer again, and stays signed in when the retry is answered', async () => {
    // The first reply is lost on the way back (the server may have rotated the cookie; it takes
    // the old one back once, for seconds): the refresh is sent again at once, not given up.
    let calls = 0
    const { store, requests, refresh } = setup(() => {
      calls += 1
      if (calls === 1) throw new TypeError('Failed to fetch')
      return json(200, { accessToken: 'new-token', user: ada })
    }, false)
    const result = await refresh()
    expect(result.data).toMatchObject({ accessToken: 'new-token' })
    expect(store.getState().session).toMatchObject({ status: 'signedIn', user: ada })
    expect(requests.map((r) => r.path)).toEqual(['/api/auth/refresh', '/api/auth/refresh'])
  })

  it('ends restoring as signed out when there is no session', async () => {
    const { store, requests, refresh } = setup(
      () => json(401, { error: { code: 'no_session', message: 'No session' } }),
      false,
    )
    const result = await refresh()
    expect(result.error).toMatchObject({ status: 401 })
    expect(store.getState().session.status).toBe('signedOut')
    expect(requests).toHaveLength(1)
  })

  it('asks nothing without the session marker: a visitor is signed out at once', async () => {
    const { store, requests, refresh, fetchThing } = setup(unauthorized, false, false)
    const result = await refresh()
    expect(result.error).toMatchObject({ status: 401, data: { error: { code: 'no_session' } } })
    expect(store.getState().session.status).toBe('signedOut')
    expect(requests).toEqual([])
    // A 401 elsewhere is returned as it is, without a refresh call.
    expect((await fetchThing(1)).error).toMatchObject({ status: 401 })
    expect(requests.map((r) => r.path)).toEqual(['/api/things/1'])
  })

  it('lets a refresh call and a renewal after a 401 share one refresh call', async () => {
    let answerRefresh: () => void = () => undefined
    const refreshAnswered = new Promise<void>((resolve) => (answerRefresh = resolve))
    const things = byBearer('new-token')
    const { requests, fetchThing, refresh } = setup(async (request) => {
      if (new URL(request.url).pathname !== '/api/auth/refresh') return things(request)
      await refreshAnswered
      return json(200, { accessToken: 'new-token', user: ada })
    })
    const pending = Promise.all([refresh(), fetchThing(1), refresh()])
    await new Promise((resolve) => setTimeout(resolve, 10))
    answerRefresh()
    const [first, thing, second] = await pending

    expect(first.data).toMatchObject({ accessToken: 'new-token' })
    expect(second.data).toMatchObject({ accessToken: 'new-token' })
    expect(thing.data).toEqual({ ok: true })
    expect(requests.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1)
  })

  it('does not renew the session when a sign-in call answers 401', async () => {
    const { store, requests, verify } = setup(() => unauthorized())
    const result = await verify()
    expect(result.error).toMatchObject({ status: 401 })
    expect(requests.map((r) => r.path)).toEqual(['/api/auth/phone/verify'])
    expect(store.getState().session.status).toBe('signedIn')
  })

  it('leaves unset query parameters out, and the "?" with them when none is set', async () => {
    const urls: string[] = []
    const api = createApi({
      baseQuery: createBaseQuery({
        baseUrl: 'http://crv.test/',
        fetchFn: async (input: RequestInfo | URL, init?: RequestInit) => {
          urls.push((input instanceof Request ? input : new Request(input, init)).url)
          return json(200, {})
        },
        mayHaveSession: () => false,
      }),
      endpoints: (build) => ({
        stats: build.query<unknown, { familiarity?: string; pool?: string }>({
          query: (arg) => ({ url: '/api/practice/stats', params: arg }),
        }),
      }),
    })
    const store = configureStore({
      reducer: combineSlices(sessionSlice, api),
      middleware: (getDefault) => getDefault().concat(api.middleware),
    })
    await store.dispatch(api.endpoints.stats.initiate({ familiarity: undefined }))
    await store.dispatch(api.endpoints.stats.initiate({ familiarity: 'unseen', pool: undefined }))
    expect(urls).toEqual([
      'http://crv.test/api/practice/stats',
      'http://crv.test/api/practice/stats?familiarity=unseen',
    ])
  })
})
