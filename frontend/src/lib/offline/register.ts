/**
 * Registers the service worker of the production build (vite-plugin-pwa writes /sw.js): the
 * app then opens and trains without a network. Registered once the page has loaded, so the
 * precache download never competes with the first screen.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No service worker (a private window, a blocked scope): the app works online as before.
    })
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}

/** Whether a service worker answers this page's requests (and keeps what they fetch). */
export function offlineReady(): boolean {
  return typeof navigator !== 'undefined' && navigator.serviceWorker?.controller != null
}

/**
 * Fetches `urls` through the service worker once it controls the page, so that they are kept
 * for use without a network (the gestalt clips of the ideogram trainer). Returns a cancel.
 */
export function keepForOffline(urls: readonly string[]): () => void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return () => {}
  let cancelled = false
  // In a task of its own: asked for from an effect of a page's first render, the requests would
  // lengthen the task that takes a pre-rendered page over.
  const warm = () =>
    setTimeout(() => {
      if (cancelled) return
      for (const url of urls) void fetch(url, { credentials: 'same-origin' }).catch(() => undefined)
    }, 0)
  if (navigator.serviceWorker.controller) warm()
  else navigator.serviceWorker.addEventListener('controllerchange', warm, { once: true })
  return () => {
    cancelled = true
    navigator.serviceWorker.removeEventListener('controllerchange', warm)
  }
}
