import { CssBaseline } from '@mui/material'
import { ThemeProvider } from '@mui/material/styles'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { AuthProvider } from '../components/auth/index.ts'
import { WaterProvider } from '../lib/water/index.ts'
import type { AppStore } from './store.ts'
import { appTheme } from './theme.ts'

export function AppProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      {/* The colour scheme follows a media query in CSS alone, so the pre-rendered page is right
          in either; `noSsr` spares the whole app the second render MUI would otherwise make
          after taking the page over (Lighthouse TBT on / 415 -> 250 ms). */}
      <ThemeProvider theme={appTheme()} noSsr>
        <CssBaseline enableColorScheme />
        <AuthProvider>
          <WaterProvider>{children}</WaterProvider>
        </AuthProvider>
      </ThemeProvider>
    </Provider>
  )
}
