import { afterAll, beforeAll } from 'vitest'
import type { Browser, ConsoleMessage, Page, Request } from 'playwright-core'
import { launchBrowser } from '../kit/browser.ts'

export { launchBrowser, launchWithProfile } from '../kit/browser.ts'

/**
 * Until the app has taken over a pre-rendered page (its root is inert until then): what only a
 * raw mouse or keyboard event does, which Playwright's own waiting for a control does not cover.
 */
export async function untilLive(page: Page): Promise<void> {
  await page.locator('#root:not([inert])').waitFor({ state: 'attached' })
}

/**
 * Until the home page's gestalt clips (seven, or `count`) have arrived: leaving the page before
 * would cancel them, which a test counts as failed requests. The app fetches them once it is
 * live, which a pre-rendered page may be some time after its load.
 */
export async function untilClipsArrived(page: Page, count = 7): Promise<void> {
  await page.waitForFunction(
    (n) =>
      performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/audio/'))
        .length >= n,
    count,
    { timeout: 30_000 },
  )
}

/**
 * One Chromium for a test file: launched before its tests, closed after them. `use` receives it
 * (`withBrowser((launched) => (browser = launched))`); a file's own `beforeAll`, declared after,
 * runs once it is there.
 */
export function withBrowser(use: (browser: Browser) => void): void {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launchBrowser()
    use(browser)
  })
  afterAll(async () => {
    await browser?.close()
  })
}

/** An HTTP error the page is meant to receive, e.g. the refresh call of a visitor: 401. */
export type ExpectedFailure = { path: string; status: number }

function isExpected(m: ConsoleMessage, expected: ExpectedFailure[]): boolean {
  const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(
    m.text(),
  )?.[1]
  if (status === undefined) return false
  let path: string
  try {
    path = new URL(m.location().url).pathname
  } catch {
    return false
  }
  return expected.some((e) => e.path === path && String(e.status) === status)
}

/**
 * Collects what a person would call a broken page: console errors and failed requests, except
 * HTTP errors the test expects (`expected`). A visitor's page asks for no session (the auth
 * service's `crv_session` marker is absent), so it logs no 401.
 */
export function watchProblems(page: Page, expected: ExpectedFailure[] = []): string[] {
  const problems: string[] = []
  const allowed = expected
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' && !isExpected(m, allowed)) problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  // A request the browser cancels because the page went on to another document (a reload, a
  // link) is the browser's doing, not a fault a person sees: each request is tagged with the
  // document it was made from, and only those of the current document count when cancelled.
  // Until the next document has come, the one being left still runs and may ask for more (the
  // app fetches code when idle): those requests are its own. The next document has come when
  // the frame is at its address (not at another: the page being left may change its own address
  // meanwhile), or at the latest when it is read.
  let documents = 0
  let leavingFor: string | null = null
  const madeFrom = new WeakMap<Request, number>()
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) {
      madeFrom.set(r, documents)
      documents++
      leavingFor = r.url()
    } else madeFrom.set(r, leavingFor === null ? documents : documents - 1)
  })
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().split('#')[0] === leavingFor) leavingFor = null
  })
  page.on('domcontentloaded', () => (leavingFor = null))
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? ''
    if (error === 'net::ERR_ABORTED' && (madeFrom.get(r) ?? documents) < documents) return
    problems.push(`request failed: ${r.url()} ${error}`)
  })
  page.on('response', (r) => {
    if (r.status() >= 500) problems.push(`HTTP ${r.status()}: ${r.url()}`)
  })
  return problems
}
