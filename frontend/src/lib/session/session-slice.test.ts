import { describe, expect, it } from 'vitest'
import {
  selectIsAdmin,
  selectIsSignedIn,
  selectSessionStatus,
  sessionSlice,
  sessionStarted,
  signedOut,
  tokenRefreshed,
  type SessionUser,
} from './session-slice.ts'

const grace: SessionUser = {
  id: 'a1',
  displayName: 'Grace Hopper',
  firstName: 'Grace',
  photoUrl: null,
  role: 'admin',
}

describe('session slice', () => {
  it('is restoring until the start-up refresh has answered', () => {
    const session = sessionSlice.reducer(undefined, { type: 'app/started' })
    expect(selectSessionStatus({ session })).toBe('restoring')
    expect(selectIsSignedIn({ session })).toBe(false)
    expect(selectSessionStatus({ session: sessionSlice.reducer(session, signedOut()) })).toBe(
      'signedOut',
    )
  })

  it('knows an administrator from a user and forgets both on sign-out', () => {
    let session = sessionSlice.reducer(
      undefined,
      sessionStarted({ accessToken: 't1', user: grace }),
    )
    expect(selectIsAdmin({ session })).toBe(true)
    expect(selectSessionStatus({ session })).toBe('signedIn')

    session = sessionSlice.reducer(
      session,
      tokenRefreshed({ accessToken: 't2', user: { ...grace, role: 'user' } }),
    )
    expect(session.accessToken).toBe('t2')
    expect(selectIsAdmin({ session })).toBe(false)
    expect(selectIsSignedIn({ session })).toBe(true)

    session = sessionSlice.reducer(session, signedOut())
    expect(selectIsSignedIn({ session })).toBe(false)
    expect(selectSessionStatus({ session })).toBe('signedOut')
    expect(session.accessToken).toBeNull()
  })

  it('keeps only the fields the app shows when the server sends the whole user', () => {
    const fromServer = { ...grace, email: 'grace@example.org', phone: null, createdAt: 'x' }
    const session = sessionSlice.reducer(
      undefined,
      sessionStarted({ accessToken: 't1', user: fromServer }),
    )
    expect(session.user).toEqual(grace)
  })
})
