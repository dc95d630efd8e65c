import { selectSessionStatus, type SessionRootState, type SessionStatus } from './session-slice.ts'

type SessionStore = {
  getState: () => SessionRootState
  subscribe: (listener: () => void) => () => void
}

/**
 * Calls `decide` with the session status once it is known: at once, or when the start-up refresh
 * answers. Returns a function that cancels a decision still waiting.
 */
export function whenSessionKnown(
  store: SessionStore,
  decide: (status: Exclude<SessionStatus, 'restoring'>) => void,
): () => void {
  const now = selectSessionStatus(store.getState())
  if (now !== 'restoring') {
    decide(now)
    return () => undefined
  }
  const unsubscribe = store.subscribe(() => {
    const known = selectSessionStatus(store.getState())
    if (known === 'restoring') return
    unsubscribe()
    decide(known)
  })
  return unsubscribe
}
