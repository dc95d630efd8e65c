import { combineSlices, configureStore, isPlain } from '@reduxjs/toolkit'
import { toastSlice } from '../components/toast/index.ts'
import { baseApi } from '../lib/api/index.ts'
import { sessionSlice } from '../lib/session/session-slice.ts'

const rootReducer = combineSlices(sessionSlice, toastSlice, baseApi)

export type RootState = ReturnType<typeof rootReducer>

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        // The speech call's MP3 arrives as a Blob (immutable bytes, never edited in the store).
        serializableCheck: { isSerializable: (v: unknown) => isPlain(v) || v instanceof Blob },
      }).concat(baseApi.middleware),
  })
}

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']
