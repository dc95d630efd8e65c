import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react'

/**
 * A part of a page that its first screen does not draw (a dialog, a tool opened by a click),
 * used like the component it stands for. Its code is fetched the first time it is wanted, or
 * sooner by `preload` (see `usePreloadWhenIdle`). Until then it draws nothing: not in the
 * pre-rendered page, not in the app's first render.
 */
export type OnDemand<P extends object> = ComponentType<P> & {
  /** Fetches the code, once; resolves when it is in (or has failed: then it is asked again). */
  preload: () => Promise<void>
  /** Runs `action` at once if the code is in, else when it is (or has failed). */
  whenLoaded: (action: () => void) => void
}

/**
 * `load` gives the component; `wantedBy` tells from its props whether it is wanted now (a
 * dialog: while it is open). Once drawn it stays drawn, so it closes with its transition and
 * opens again at once.
 *
 * A click before the code is in shows the part as soon as it arrives. No <Suspense> on purpose:
 * React holds back content that replaces a fallback for 300 ms after the fallback was shown, so
 * a dialog whose code took 20 ms would still open 300 ms after the click. Here the arrival is an
 * ordinary update, drawn at once. A load that fails while the part is wanted goes to the route's
 * error page, as a page whose code failed to load does (most often: an update replaced the files).
 */
export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P>>,
  wantedBy: (props: P) => boolean,
): OnDemand<P> {
  let loaded: ComponentType<P> | null = null
  let loading: Promise<ComponentType<P>> | null = null
  const listeners = new Set<() => void>()

  const fetchCode = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component
        for (const listener of listeners) listener()
        return component
      },
      (error: unknown) => {
        loading = null
        throw error
      },
    ))
  const subscribe = (listener: () => void) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }
  const current = () => loaded
  const none = () => null

  function Part(props: P) {
    const wanted = wantedBy(props)
    // A pre-rendered page is taken over with nothing loaded: its first render draws nothing here.
    const Loaded = useSyncExternalStore(subscribe, current, none)
    const [drawn, setDrawn] = useState(false)
    const [failure, setFailure] = useState<{ error: unknown } | null>(null)
    if (wanted && Loaded && !drawn) setDrawn(true)
    useEffect(() => {
      if (!wanted || loaded) return
      let live = true
      fetchCode().catch((error: unknown) => {
        if (live) setFailure({ error })
      })
      return () => {
        live = false
      }
    }, [wanted])
    if (failure && !Loaded) throw failure.error
    if (!Loaded || !(drawn || wanted)) return null
    // The same component on every render once loaded (the module's export), not one made here.
    // eslint-disable-next-line react-hooks/static-components
    return <Loaded {...props} />
  }

  const preload = () =>
    fetchCode().then(
      () => undefined,
      () => undefined,
    )
  return Object.assign(Part, {
    preload,
    whenLoaded: (action: () => void) => {
      if (loaded) action()
      else void preload().then(action)
    },
  })
}

/**
 * Fetches the code of a page's on-demand parts once the page has loaded and the browser is
 * idle, so that the first click finds it in. Nothing of it runs in the take-over's commit but
 * asking for the idle time.
 */
export function usePreloadWhenIdle(parts: readonly { preload: () => Promise<void> }[]): void {
  useEffect(() => {
    let idle: number | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const run = () => {
      for (const part of parts) void part.preload()
    }
    const whenIdle = () => {
      if (typeof requestIdleCallback === 'function')
        idle = requestIdleCallback(run, { timeout: idleTimeoutMs })
      // Safari has no idle callbacks: a moment after the load.
      else timer = setTimeout(run, noIdleDelayMs)
    }
    if (document.readyState === 'complete') whenIdle()
    else window.addEventListener('load', whenIdle, { once: true })
    return () => {
      window.removeEventListener('load', whenIdle)
      if (idle !== undefined) cancelIdleCallback(idle)
      clearTimeout(timer)
    }
  }, [parts])
}

/** The longest an idle fetch waits for the browser to be idle. */
const idleTimeoutMs = 3000
const noIdleDelayMs = 1000
