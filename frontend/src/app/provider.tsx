import { CssBaseline } from '@mui/material'
import { ThemeProvider } from '@mui/material/styles'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { AuthProvider } from '../components/auth/index.ts'
import { WaterProvider } from '../lib/water/index.ts'
import type { AppStore } from './store.ts'
import { theme } from './theme.ts'

export function AppProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        <AuthProvider>
          <WaterProvider>{children}</WaterProvider>
        </AuthProvider>
      </ThemeProvider>
    </Provider>
  )
}
