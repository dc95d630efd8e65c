import { describe, expect, it, inject } from 'vitest'
import type { Browser } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'
import { signIn } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

describe('app shell', () => {
  it('renders the home page with the header and no console errors', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/')
    await page.getByRole('banner').getByText('CRV Training').waitFor()
    expect(await page.title()).toMatch(/CRV Training/)
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('counts a request the page cancels itself, not one a reload cancels (the test harness)', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    // Held unanswered: only the page's own abort or a reload ends it.
    await page.route('**/held', () => undefined)
    await page.goto(base + '/')
    await page.getByRole('banner').getByText('CRV Training').waitFor()
    await page.evaluate(() => void fetch('/held').catch(() => undefined))
    const cancelled = page.waitForEvent('requestfailed')
    await page.reload()
    await cancelled
    expect(problems, problems.join('\n')).toEqual([])

    await page.getByRole('banner').getByText('CRV Training').waitFor()
    // Asked for by the page being left after the next page was asked for (held back 1.5 s),
    // every 200 ms until it has gone: the browser's doing too.
    await page.route('**/sidereal-time', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    })
    await page.evaluate(() => setInterval(() => void fetch('/held').catch(() => undefined), 200))
    const leftBehind = page.waitForEvent('requestfailed')
    await page.goto(base + '/sidereal-time')
    await leftBehind
    await page.unroute('**/sidereal-time')
    await page.getByRole('heading', { level: 1, name: 'Sidereal Time Calculator' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])

    await page.getByRole('banner').getByText('CRV Training').waitFor()
    const failed = page.waitForEvent('requestfailed')
    await page.evaluate(() => {
      const controller = new AbortController()
      void fetch('/held', { signal: controller.signal }).catch(() => undefined)
      setTimeout(() => controller.abort(), 100)
    })
    await failed
    expect(problems).toEqual([`request failed: ${base}/held net::ERR_ABORTED`])
    await page.close()
  })

  it('shows the 404 page for an unknown path', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/no/such/page')
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor()
    await page.getByRole('link', { name: 'Return to Home' }).click()
    await page.waitForURL(base + '/')
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('opens the side menu and hides admin-only entries from visitors', async () => {
    const page = await browser.newPage()
    await page.goto(base + '/')
    await page.getByRole('button', { name: /menu/i }).first().click()
    const nav = page.getByRole('navigation')
    await nav.getByText('Sidereal Time').waitFor()
    expect(await nav.getByText('Admin Panel').count()).toBe(0)
    expect(await nav.getByText('Tachistoscope').count()).toBe(0)
    // The trainer is open to everyone (with stage gating); a user's own pages need a user.
    await nav.getByRole('link', { name: 'Descriptor Training' }).waitFor()
    expect(await nav.getByRole('link', { name: 'My Custom Descriptors' }).count()).toBe(0)
    expect(await nav.getByRole('link', { name: 'Export Data' }).count()).toBe(0)
    await nav.getByText('Sidereal Time').click()
    await page.waitForURL(base + '/sidereal-time')
    await page.close()
  })

  it("keeps the last page up with progress in the header while the next page's code is on its way", async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    // The sidereal page's own module is held until the test lets it go.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/assets/sidereal-time-page-*.js', async (route) => {
      await held
      await route.continue()
    })
    await page.goto(base + '/')
    await page.getByRole('heading', { level: 1, name: 'Ideogram Training' }).waitFor()
    await page.getByRole('button', { name: /menu/i }).first().click()
    await page.getByRole('navigation').getByText('Sidereal Time').click()
    const progress = page.getByRole('progressbar', { name: 'Loading page' })
    await progress.waitFor()
    // The page the user was on stays, whole, until the next one can be drawn.
    expect(await page.getByRole('heading', { level: 1, name: 'Ideogram Training' }).count()).toBe(1)
    release()
    await page.getByRole('heading', { level: 1, name: 'Sidereal Time Calculator' }).waitFor()
    await progress.waitFor({ state: 'detached' })
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it("lists a signed-in user's own pages and the trainer, and still no admin entries", async () => {
    const page = await browser.newPage()
    await page.goto(base + '/')
    await signIn(page, base)
    await page.getByRole('button', { name: /menu/i }).first().click()
    const nav = page.getByRole('navigation', { name: 'Main menu' })
    await nav.getByRole('link', { name: 'Descriptor Training' }).waitFor()
    await nav.getByRole('link', { name: 'Export Data' }).waitFor()
    expect(await nav.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0)
    await nav.getByRole('link', { name: 'My Custom Descriptors' }).click()
    await page.waitForURL(base + '/admin')
    await page.getByRole('heading', { name: 'Manage Your Custom Descriptors' }).waitFor()
    await page.close()
  })
})

describe('every route of the spec, as a visitor', () => {
  const routes: [string, string, RegExp][] = [
    ['/', 'Ideogram Training', /Ideogram/],
    ['/descriptors', 'Descriptor Training', /Descriptor Training/],
    ['/descriptor-training', 'Descriptor Training', /Descriptor Training/],
    ['/sidereal-time', 'Sidereal Time', /Sidereal Time/],
    ['/tachistoscope', 'Access Restricted', /Tachistoscope/],
    ['/tachistoscope-admin', 'Access Denied', /Tachistoscope Images/],
    ['/admin', 'Manage Your Custom Descriptors', /Manage Your Custom Descriptors/],
    ['/admin/descriptors', 'Access Denied', /Descriptor Management/],
    ['/admin/pending-descriptors', 'Access Denied', /Pending Descriptors/],
    ['/admin-panel', 'Access Denied', /Admin Panel/],
    ['/export-data', 'Sign In Required', /Export Your Data/],
  ]

  it.each(routes)(
    '%s shows "%s" with its own title and no errors',
    async (path, heading, title) => {
      const page = await browser.newPage()
      const problems = watchProblems(page)
      await page.goto(base + path)
      await page.getByRole('heading', { name: heading, exact: false }).first().waitFor()
      expect(await page.title()).toMatch(title)
      const description = await page.locator('meta[name="description"]').getAttribute('content')
      expect(description?.length).toBeGreaterThan(20)
      expect(problems, problems.join('\n')).toEqual([])
      await page.close()
    },
  )
})
