import { startTransition, useEffect, useLayoutEffect, useReducer, useRef } from 'react'
import { useStore, type EqualityFn, type UseSelector } from 'react-redux'

type UseSelectorOptions<Selected> = { equalityFn?: EqualityFn<Selected> }

type Selection<TState, Selected> = {
  select: (state: TState) => Selected
  equal: EqualityFn<Selected>
  value: Selected
}

function equalityOf<Selected>(
  equalityFnOrOptions: EqualityFn<Selected> | UseSelectorOptions<Selected> | undefined,
): EqualityFn<Selected> {
  if (typeof equalityFnOrOptions === 'function') return equalityFnOrOptions
  return equalityFnOrOptions?.equalityFn ?? Object.is
}

/**
 * react-redux's `useSelector`, except that a store change is drawn as a transition. The server's
 * answers reach the page through RTK Query's hooks, and `useSelector` (React's
 * `useSyncExternalStore`) redraws every reader of a changed answer synchronously, without
 * yielding: on a phone each answer of the descriptor trainer was a 50–100 ms task, and the
 * queries started by the take-over of a pre-rendered page made its commit one task with a whole
 * second render in it (issue [12]). In a transition React renders in slices that yield to input
 * and paint; a newer change simply restarts it. The selection is read from the store while
 * rendering, so a render never shows an older state than the store's. Meant for RTK Query's hooks
 * (`base-api.ts`), whose selectors return the same object for an equal answer.
 */
function useSelectorInTransitionImpl<TState, Selected>(
  select: (state: TState) => Selected,
  equalityFnOrOptions?: EqualityFn<Selected> | UseSelectorOptions<Selected>,
): Selected {
  const store = useStore<TState>()
  const [, redraw] = useReducer((n: number) => n + 1, 0)
  const equal = equalityOf(equalityFnOrOptions)
  // RTK Query's selectors are memoised: an equal answer comes back as the same object.
  const value = select(store.getState())
  const last = useRef<Selection<TState, Selected> | null>(null)
  useLayoutEffect(() => {
    last.current = { select, equal, value }
  })
  useEffect(() => {
    const check = () => {
      const current = last.current
      if (current === null) return
      const next = current.select(store.getState())
      if (!current.equal(current.value, next)) startTransition(redraw)
    }
    // The store may have changed between this render and the subscription.
    check()
    return store.subscribe(check)
  }, [store])
  return value
}

export const useSelectorInTransition = Object.assign(useSelectorInTransitionImpl, {
  withTypes: () => useSelectorInTransitionImpl,
}) as UseSelector
