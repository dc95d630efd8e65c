import { StrictMode, startTransition, useEffect, useLayoutEffect } from 'react'
import type { ReactNode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { bootApp } from './app/app.tsx'
import { appTheme } from './app/theme.ts'
import { i18next, initI18n } from './lib/i18n/index.ts'
import { preloadPartsWhenIdle } from './lib/lazy-part.ts'

const container = document.getElementById('root')
if (!container) throw new Error('index.html lacks the #root element')

/**
 * A first visit may have painted the page's pre-rendered shell (gateway/src/shells.ts), inert
 * until the app has taken it over; then it is live. Once it is, and the browser is idle, the code
 * of what only shows after a user's action (menus, toasts, tooltips) is fetched ahead of need.
 */
function Live({ children }: { children: ReactNode }) {
  useLayoutEffect(() => container?.removeAttribute('inert'), [])
  useEffect(preloadPartsWhenIdle, [])
  return children
}

/** Lets the browser handle input and paint between the steps of the app's start. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

// The first render waits for the interface's language (English is in this bundle; another
// language is one small chunk) and for the page's own code. Each step is a task of its own,
// apart from the evaluation of the app's modules.
void nextTask()
  .then(initI18n)
  .then(async () => {
    await nextTask()
    // The browser loads a locale's Intl data on first use (~50 ms at a phone's speed): in a task
    // of its own, not inside the app's start or its first render.
    new Intl.PluralRules(i18next.language)
    Intl.NumberFormat.supportedLocalesOf([i18next.language])
    await nextTask()
    appTheme()
    await nextTask()
    const { App, ready } = bootApp()
    await ready
    await nextTask()
    const app = (
      <StrictMode>
        <Live>
          <App />
        </Live>
      </StrictMode>
    )
    const prerendered = container.hasAttribute('inert')
    // A transition: React draws (or takes over) the first screen in slices, so the page stays
    // responsive.
    startTransition(() => {
      if (prerendered)
        // The app adopts the shell's elements as they are. Where its first screen differs
        // (settings kept in this browser), React draws the page anew: the shell has done its
        // part, so this is no error.
        hydrateRoot(container, app, {
          onRecoverableError: (error) =>
            console.warn('The pre-rendered page was drawn anew by the app:', error),
        })
      else createRoot(container).render(app)
    })
  })
