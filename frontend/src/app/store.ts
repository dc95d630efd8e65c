// The store's reducer, types and hooks live in lib/store, where components and features can
// reach them; the app makes its store from there.
export { makeStore } from '../lib/store/index.ts'
export type { AppStore } from '../lib/store/index.ts'
