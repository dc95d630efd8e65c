import { RouterProvider } from 'react-router-dom'
import { startSession } from '../components/auth/index.ts'
import { Toaster } from '../components/toast/index.ts'
import { AppProvider } from './provider.tsx'
import { createAppRouter } from './router.tsx'
import { makeStore } from './store.ts'

const store = makeStore()
// Before the router reads the address: a failed redirect sign-in leaves `authError` in it.
startSession(store.dispatch)
const router = createAppRouter()

export function App() {
  return (
    <AppProvider store={store}>
      <RouterProvider router={router} />
      <Toaster />
    </AppProvider>
  )
}
