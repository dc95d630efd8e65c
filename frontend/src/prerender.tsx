// The build's pre-renderer (run in Node by vite.config.ts after the client build): each public
// page's first screen as HTML, in each interface language, so a phone paints the page before
// its JavaScript has arrived. The app then renders itself over it (src/main.tsx); nothing here
// runs in the browser.
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router-dom'
import { AppFrame } from './app/app.tsx'
import { AppRoutes, pageAt } from './app/router.tsx'
import { makeStore } from './app/store.ts'
import { changeUiLanguage, i18next, initI18n } from './lib/i18n/index.ts'
import type { UiLanguage } from './lib/i18n/index.ts'
import { PageMetaCollector } from './lib/use-page-meta.ts'
import type { PageMeta } from './lib/use-page-meta.ts'

let started: Promise<void> | null = null

/** A shell is what a visitor sees: the app finds no session for them before its first render. */
const VISITOR = { session: { status: 'signedOut' as const, accessToken: null, user: null } }

/** The page at `path` as the app first draws it for a visitor, in `language`, with its title. */
export async function renderPage(
  path: string,
  language: UiLanguage,
): Promise<PageMeta & { html: string; namespaces: string[] }> {
  started ??= initI18n()
  await started
  await changeUiLanguage(language, { remember: false })
  const page = pageAt(path)
  await page.preload()
  let meta: PageMeta = {
    title: i18next.t('pageMeta.home.title'),
    description: i18next.t('pageMeta.home.description'),
  }
  const html = renderToString(
    <StrictMode>
      <PageMetaCollector value={(m) => (meta = m)}>
        <AppFrame store={makeStore(VISITOR)}>
          <StaticRouter location={path}>
            <AppRoutes />
          </StaticRouter>
        </AppFrame>
      </PageMetaCollector>
    </StrictMode>,
  )
  // The catalogues the page loads with its code: its shell asks for them with its modules.
  return { html, ...meta, namespaces: page.namespaces }
}
