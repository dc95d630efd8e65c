import type { ReactNode } from 'react'
import { startSession } from '../components/auth/index.ts'
import { Toaster } from '../components/toast/index.ts'
import { registerServiceWorker } from '../lib/offline/register.ts'
import { rememberUser } from '../lib/session/remembered-user.ts'
import { AppProvider } from './provider.tsx'
import { AppRouter, AppRoutes, pageAt } from './router.tsx'
import { makeStore } from './store.ts'
import type { AppStore } from './store.ts'

/**
 * Everything around the router, shared with the build's pre-renderer (src/prerender.tsx): the
 * app takes over a pre-rendered page only if both draw the same tree.
 */
export function AppFrame({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <AppProvider store={store}>
      {children}
      <Toaster />
    </AppProvider>
  )
}

/**
 * Starts the app and returns its root. Called once the interface's language is loaded: a failed
 * redirect sign-in is reported at once, in that language.
 */
export function bootApp() {
  const store = makeStore()
  // Whoever signs in with a token is remembered for a start without network (see base-query).
  let remembered: string | null = null
  store.subscribe(() => {
    const { user, accessToken } = store.getState().session
    if (user && accessToken && user.id !== remembered) {
      remembered = user.id
      rememberUser(user)
    }
  })
  // Before the router reads the address: a failed redirect sign-in leaves `authError` in it.
  startSession(store.dispatch)
  registerServiceWorker()

  // The first render waits for the page's own code (a lazy page), so it draws the page at once;
  // a page that fails to load shows RouteError in its place.
  const ready = pageAt(window.location.pathname)
    .preload()
    .catch(() => undefined)

  function App() {
    return (
      <AppFrame store={store}>
        <AppRouter>
          <AppRoutes />
        </AppRouter>
      </AppFrame>
    )
  }
  return { App, ready }
}
