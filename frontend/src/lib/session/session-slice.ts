import { createSlice, type PayloadAction } from '@reduxjs/toolkit'

export type SessionUser = {
  id: string
  displayName: string
  firstName: string
  photoUrl: string | null
  role: 'user' | 'admin'
}

export type SessionState = {
  accessToken: string | null
  user: SessionUser | null
}

export type SessionStarted = { accessToken: string; user: SessionUser }

const initialState: SessionState = { accessToken: null, user: null }

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionStarted: (_state, action: PayloadAction<SessionStarted>) => action.payload,
    tokenRefreshed: (_state, action: PayloadAction<SessionStarted>) => action.payload,
    signedOut: () => initialState,
  },
  selectors: {
    selectAccessToken: (state) => state.accessToken,
    selectUser: (state) => state.user,
    selectIsSignedIn: (state) => state.user !== null,
    selectIsAdmin: (state) => state.user?.role === 'admin',
  },
})

export const { sessionStarted, tokenRefreshed, signedOut } = sessionSlice.actions
export const { selectAccessToken, selectUser, selectIsSignedIn, selectIsAdmin } =
  sessionSlice.selectors

export type SessionRootState = { [sessionSlice.reducerPath]: SessionState }
