import { createSlice, type PayloadAction } from '@reduxjs/toolkit'

export type SessionUser = {
  id: string
  displayName: string
  firstName: string
  photoUrl: string | null
  role: 'user' | 'admin'
}

/** `restoring` until the first refresh call on start-up has answered. */
export type SessionStatus = 'restoring' | 'signedIn' | 'signedOut'

export type SessionState = {
  status: SessionStatus
  accessToken: string | null
  user: SessionUser | null
}

export type SessionStarted = { accessToken: string; user: SessionUser }

const initialState: SessionState = { status: 'restoring', accessToken: null, user: null }

// Keeps only the fields the app reads: the server's user also carries e-mail, phone and dates.
const signedIn = ({ accessToken, user }: SessionStarted): SessionState => ({
  status: 'signedIn',
  accessToken,
  user: {
    id: user.id,
    displayName: user.displayName,
    firstName: user.firstName,
    photoUrl: user.photoUrl,
    role: user.role,
  },
})

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionStarted: (_state, action: PayloadAction<SessionStarted>) => signedIn(action.payload),
    tokenRefreshed: (_state, action: PayloadAction<SessionStarted>) => signedIn(action.payload),
    signedOut: (): SessionState => ({ status: 'signedOut', accessToken: null, user: null }),
    /**
     * Started offline: the refresh call could not reach the server, so the user this browser
     * last knew is signed in without a token until the network is back (their training is
     * kept and sent then).
     */
    restoredOffline: (_state, action: PayloadAction<SessionUser>): SessionState => ({
      status: 'signedIn',
      accessToken: null,
      user: action.payload,
    }),
  },
  selectors: {
    selectSessionStatus: (state) => state.status,
    selectAccessToken: (state) => state.accessToken,
    selectUser: (state) => state.user,
    selectIsSignedIn: (state) => state.user !== null,
    selectIsAdmin: (state) => state.user?.role === 'admin',
  },
})

export const { sessionStarted, tokenRefreshed, signedOut, restoredOffline } = sessionSlice.actions
export const {
  selectSessionStatus,
  selectAccessToken,
  selectUser,
  selectIsSignedIn,
  selectIsAdmin,
} = sessionSlice.selectors

export type SessionRootState = { [sessionSlice.reducerPath]: SessionState }
