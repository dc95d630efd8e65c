import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { bootApp } from './app/app.tsx'
import { initI18n } from './lib/i18n/index.ts'

const container = document.getElementById('root')
if (!container) throw new Error('index.html lacks the #root element')

// The first render waits for the interface's language (English is in this bundle; another
// language is one small chunk).
void initI18n().then(() => {
  const App = bootApp()
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
})
