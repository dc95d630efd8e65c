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
    // The libraries first, each evaluated in its own task, then the app. The page's modules are
    // asked for once the libraries are in: asked for sooner, they shared the network with the
    // page's first paint, and Lighthouse's model of a slow phone then counted them towards it.
    for (const href of preload) {
      await nextTask()
      await import(href)
    }
    await nextTask()
    ask(JSON.parse(script.dataset.page || '[]'))
    await nextTask()
    await import(script.dataset.app)
  }
  // Once the shell's largest text has been painted (or, where the browser does not report that,
  // its first content, or else the next frame): a request sent sooner shares the network with
  // that paint, and Lighthouse's model of a slow phone then counts all of it before the paint
  // (LCP 2.7 s instead of 1.0 s in 2 of 5 runs). A tab opened in the background paints nothing,
  // so not later than 500 ms.
  const types =
    (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes) || []
  const painted = ['largest-contentful-paint', 'paint'].find((type) => types.includes(type))
  if (painted) {
    const observer = new PerformanceObserver(() => {
      observer.disconnect()
      setTimeout(start, 0)
    })
    observer.observe({ type: painted, buffered: true })
  } else requestAnimationFrame(() => setTimeout(start, 0))
  setTimeout(start, 500)
})()
