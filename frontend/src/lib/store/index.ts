export { makeStore, rootReducer } from './store.ts'
export type { AppDispatch, AppStore, RootState } from './store.ts'
export { useAppDispatch, useAppSelector, useAppStore } from './hooks.ts'
