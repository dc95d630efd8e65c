import { RouterProvider } from 'react-router-dom'
import { startSession } from '../components/auth/index.ts'
import { Toaster } from '../components/toast/index.ts'
import { registerServiceWorker } from '../lib/offline/register.ts'
import { rememberUser } from '../lib/session/remembered-user.ts'
import { AppProvider } from './provider.tsx'
import { createAppRouter } from './router.tsx'
import { makeStore } from './store.ts'

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
  const router = createAppRouter()
  registerServiceWorker()

  return function App() {
    return (
      <AppProvider store={store}>
        <RouterProvider router={router} />
        <Toaster />
      </AppProvider>
    )
  }
}
