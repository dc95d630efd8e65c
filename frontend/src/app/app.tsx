import { RouterProvider } from 'react-router-dom'
import { Toaster } from '../components/toast/index.ts'
import { AppProvider } from './provider.tsx'
import { createAppRouter } from './router.tsx'
import { makeStore } from './store.ts'

const store = makeStore()
const router = createAppRouter()

export function App() {
  return (
    <AppProvider store={store}>
      <RouterProvider router={router} />
      <Toaster />
    </AppProvider>
  )
}
