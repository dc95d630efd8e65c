import { describe, expect, it } from 'vitest'
import {
  selectIsAdmin,
  selectIsSignedIn,
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
  it('knows an administrator from a user and forgets both on sign-out', () => {
    let session = sessionSlice.reducer(
      undefined,
      sessionStarted({ accessToken: 't1', user: grace }),
    )
    expect(selectIsAdmin({ session })).toBe(true)

    session = sessionSlice.reducer(
      session,
      tokenRefreshed({ accessToken: 't2', user: { ...grace, role: 'user' } }),
    )
    expect(session.accessToken).toBe('t2')
    expect(selectIsAdmin({ session })).toBe(false)
    expect(selectIsSignedIn({ session })).toBe(true)

    session = sessionSlice.reducer(session, signedOut())
    expect(selectIsSignedIn({ session })).toBe(false)
    expect(session.accessToken).toBeNull()
  })
})
