import { configureStore } from '@reduxjs/toolkit'
import { describe, expect, it } from 'vitest'
import { sessionSlice, sessionStarted, signedOut, type SessionUser } from './session-slice.ts'
import { whenSessionKnown } from './when-session-known.ts'

const ada: SessionUser = {
  id: 'u1',
  displayName: 'Ada Lovelace',
  firstName: 'Ada',
  photoUrl: null,
  role: 'user',
}

const makeStore = () => configureStore({ reducer: { session: sessionSlice.reducer } })

describe('whenSessionKnown', () => {
  it('decides at once when the session is already known', () => {
    const store = makeStore()
    store.dispatch(sessionStarted({ accessToken: 't', user: ada }))
    const decisions: string[] = []
    whenSessionKnown(store, (status) => decisions.push(status))
    expect(decisions).toEqual(['signedIn'])
  })

  it('waits for the session being restored, then decides once', () => {
    const store = makeStore()
    const decisions: string[] = []
    whenSessionKnown(store, (status) => decisions.push(status))
    expect(decisions).toEqual([])
    store.dispatch(signedOut())
    store.dispatch(sessionStarted({ accessToken: 't', user: ada }))
    expect(decisions).toEqual(['signedOut'])
  })

  it('can be cancelled while waiting', () => {
    const store = makeStore()
    const decisions: string[] = []
    const cancel = whenSessionKnown(store, (status) => decisions.push(status))
    cancel()
    store.dispatch(signedOut())
    expect(decisions).toEqual([])
  })
})
