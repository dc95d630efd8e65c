// Starts the app over a pre-rendered route shell (vite.config.ts, routeShells) once the shell
// has been painted: the page shows before the app's code is evaluated, even when that code is
// already at hand. A file, not an inline script: the Content-Security-Policy allows only
// scripts from 'self'. The app's entry and the modules it needs first are in `data-app` and
// `data-preload`; the page's own modules, which the app's router would ask for one by one
// while it starts, are in `data-page`.
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
    const ask = (hrefs) => {
      for (const href of hrefs) {
        const link = document.createElement('link')
        link.rel = 'modulepreload'
        link.crossOrigin = ''
        link.href = href
        document.head.append(link)
      }
    }
    const preload = JSON.parse(script.dataset.preload || '[]')
    ask(preload)
    await nextTask()
    ask(JSON.parse(script.dataset.page || '[]'))
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
