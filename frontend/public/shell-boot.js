// Starts the app over a pre-rendered route shell (vite.config.ts, routeShells) once the shell
// has been painted: the page shows before the app's code is evaluated, even when that code is
// already at hand. A file, not an inline script: the Content-Security-Policy allows only
// scripts from 'self'. The app's entry and the modules it needs first are in `data-app` and
// `data-preload`.
/* global document, requestAnimationFrame */
;(() => {
  'use strict'
  const script = document.querySelector('script[data-app]')
  if (!script) return
  let started = false
  // A task of its own for each piece: a phone's main thread is never held for long at a time.
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))
  const start = async () => {
    if (started) return
    started = true
    const preload = JSON.parse(script.dataset.preload || '[]')
    for (const href of preload) {
      const link = document.createElement('link')
      link.rel = 'modulepreload'
      link.href = href
      document.head.append(link)
    }
    // The libraries first, each evaluated in its own task, then the app.
    for (const href of preload) {
      await nextTask()
      await import(href)
    }
    await nextTask()
    await import(script.dataset.app)
  }
  // After the next frame; a tab opened in the background paints no frame, so not later than this.
  requestAnimationFrame(() => setTimeout(start, 0))
  setTimeout(start, 500)
})()
