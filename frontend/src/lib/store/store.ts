import { combineSlices, configureStore, isPlain } from '@reduxjs/toolkit'
import { baseApi } from '../api/index.ts'
import { sessionSlice } from '../session/session-slice.ts'
import { toastSlice } from '../toast/toast-slice.ts'

// Below app/ so that components and lib can type their hooks from it (app/store.ts re-exports).
export const rootReducer = combineSlices(sessionSlice, toastSlice, baseApi)

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
