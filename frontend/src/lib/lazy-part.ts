import { useEffect, useState } from 'react'

/**
 * A part of the interface that only shows after a user's action (the side menu, the language
 * menu, a toast, a tooltip). Its code is left out of a first visit's scripts: it is loaded when
 * first needed, or before that once the page is live and idle (`preloadPartsWhenIdle`), so that
 * it then opens in the very render that asks for it.
 */
export type LazyPart<T> = {
  /** The module, once loaded. */
  readonly loaded: T | undefined
  load(): Promise<T>
}

const parts: LazyPart<unknown>[] = []

export function lazyPart<T>(importModule: () => Promise<T>): LazyPart<T> {
  let loaded: T | undefined
  let loading: Promise<T> | undefined
  const part: LazyPart<T> = {
    get loaded() {
      return loaded
    },
    load() {
      loading ??= importModule().then(
        (module) => (loaded = module),
        (error: unknown) => {
          // Asked for again the next time it is needed (the network may be back).
          loading = undefined
          throw error
        },
      )
      return loading
    },
  }
  parts.push(part)
  return part
}

/**
 * The part's module, from the render in which `wanted` is first true (and on: a part once shown
 * stays mounted, so that it can animate out); undefined before, and while it loads. It is drawn
 * in that same render when its module is in already; else it is loaded, and drawn when it is.
 * A part that was never wanted draws nothing, so the first render is the pre-rendered page's.
 */
export function useLazyPart<T>(part: LazyPart<T>, wanted: boolean): T | undefined {
  const [wantedOnce, setWantedOnce] = useState(wanted)
  if (wanted && !wantedOnce) setWantedOnce(true)
  const [, setLoaded] = useState<T>()
  const module = part.loaded
  const loading = (wanted || wantedOnce) && module === undefined
  useEffect(() => {
    if (!loading) return
    let current = true
    part.load().then(
      (loaded) => {
        if (current) setLoaded(() => loaded)
      },
      () => {
        // Offline, or the app was updated under the page: it is asked for again when next wanted.
      },
    )
    return () => {
      current = false
    }
  }, [loading, part])
  return wanted || wantedOnce ? module : undefined
}

let preloading = false

/**
 * Loads every part's code once the page is live and the browser idle, one part at a time, so
 * that a menu or a tooltip opens at once the first time too; the first visit's scripts (those
 * fetched before the page is live) stay without them. Not where the user asked to save data.
 */
export function preloadPartsWhenIdle(): void {
  if (preloading || typeof window === 'undefined') return
  preloading = true
  const connection = (navigator as { connection?: { saveData?: boolean } }).connection
  if (connection?.saveData) return
  const whenIdle = (run: () => void) => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 3000 })
    else setTimeout(run, 200)
  }
  const preload = (index: number) => {
    const part = parts[index]
    if (!part) return
    whenIdle(() => {
      part.load().then(
        () => preload(index + 1),
        () => preload(index + 1),
      )
    })
  }
  if (document.readyState === 'complete') preload(0)
  else window.addEventListener('load', () => preload(0), { once: true })
}
