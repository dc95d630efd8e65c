// A first visit's pre-rendered page (issue [12], a phone's first load): the public pages come
// as HTML the browser paints before any of the app's code has run, in the visitor's language;
// the app then takes those very elements over (nothing drawn twice) and the page works.
import { beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, Page, Route } from 'playwright-core'
import { gestaltToggle } from '../../bench/scenarios/ideogram.ts'
import { untilLive, watchProblems, withBrowser } from './browser.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))
beforeAll(async () => {})

const pages = [
  { path: '/', heading: 'Ideogram Training', german: 'Ideogramm-Training' },
  { path: '/descriptors', heading: 'Descriptor Training', german: 'Deskriptor-Training' },
  { path: '/descriptor-training', heading: 'Descriptor Training', german: 'Deskriptor-Training' },
  { path: '/sidereal-time', heading: 'Sidereal Time Calculator', german: 'Sternzeit-Rechner' },
  {
    path: '/practice',
    heading: 'Practice on a blind target',
    german: 'Üben mit einem verdeckten Target',
  },
]

/** What the tests read of the page's DOM (the test code itself has no DOM types). */
type Shown = { isConnected: boolean }
type Doc = {
  addEventListener(type: string, listener: () => void): void
  querySelectorAll(selectors: string): Iterable<Shown>
  getElementById(id: string): { hasAttribute(name: string): boolean } | null
}

/** The page's main heading as the HTML alone draws it: the app's code is never run. */
async function headingWithoutScripts(path: string, locale: string): Promise<string | null> {
  const context = await browser.newContext({ javaScriptEnabled: false, locale })
  try {
    const page = await context.newPage()
    await page.goto(base + path)
    return await page.locator('h1').first().textContent()
  } finally {
    await context.close()
  }
}

describe('pre-rendered public pages', () => {
  it('paint their page from the HTML alone, in the browser’s language', async () => {
    for (const { path, heading, german } of pages) {
      expect(await headingWithoutScripts(path, 'en-US'), path).toBe(heading)
      expect(await headingWithoutScripts(path, 'de-DE'), path).toBe(german)
    }
    // A page without a shell draws nothing without its code.
    const context = await browser.newContext({ javaScriptEnabled: false })
    const bare = await context.newPage()
    await bare.goto(`${base}/settings`)
    expect(await bare.locator('#root').innerHTML()).toBe('')
    await context.close()
  })

  it('are taken over by the app as they are, then work', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    try {
      for (const { path, heading } of pages) {
        const page = await context.newPage()
        const problems = watchProblems(page)
        const redrawn: string[] = []
        page.on('console', (m) => {
          if (/drawn anew/.test(m.text())) redrawn.push(m.text())
        })
        // The shell's heading, header and buttons, kept before the app's code runs.
        await page.addInitScript(() => {
          const doc = (globalThis as unknown as { document: Doc }).document
          doc.addEventListener('DOMContentLoaded', () => {
            ;(globalThis as unknown as { crvShell: Shown[] }).crvShell = [
              ...doc.querySelectorAll('#root h1, #root header, #root button'),
            ]
          })
        })
        await page.goto(base + path)
        await expect.poll(() => isLive(page), { timeout: 15_000 }).toBe(true)
        // Taken over, not drawn again: every one of them is still on the page.
        const shell = await page.evaluate(() => {
          const kept = (globalThis as unknown as { crvShell: Shown[] }).crvShell
          return { count: kept.length, onPage: kept.filter((el) => el.isConnected).length }
        })
        expect(shell.count, path).toBeGreaterThan(2)
        expect(shell.onPage, path).toBe(shell.count)
        expect(redrawn, path).toEqual([])
        await expect.poll(() => page.locator('h1').first().textContent()).toBe(heading)
        expect(problems, path).toEqual([])
        await page.close()
      }
    } finally {
      await context.close()
    }
  })

  it('open the side menu once the app is live', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    const page = await context.newPage()
    await page.goto(`${base}/sidereal-time`)
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect
      .poll(() => page.getByRole('link', { name: 'Ideogram Training' }).isVisible())
      .toBe(true)
    await context.close()
  })
})

// What shows only after a user's action (src/lib/lazy-part.ts): the side menu, toasts and
// tooltips. Their code is no part of a first visit's scripts, each chunk fetched once the page is
// live at the earliest (then when idle, or when first needed), and each opens on the first
// click, hover or toast all the same. (The language menu's code stays with the first screen:
// every pre-rendered page's text field brings MUI's Menu along.)
describe('the side menu, toasts and tooltips', () => {
  const parts = ['side-menu-drawer', 'toast-snackbar', 'tip-popup']

  /** Records when the page went live (its root lost `inert`), by the page's clock. */
  async function recordLive(page: Page): Promise<void> {
    await page.addInitScript(() => {
      type Root = { hasAttribute(name: string): boolean }
      const scope = globalThis as unknown as {
        document: Doc & { addEventListener(type: string, listener: () => void): void }
        performance: { now(): number }
        MutationObserver: new (callback: () => void) => {
          observe(node: unknown, options: { attributes: boolean }): void
          disconnect(): void
        }
        crvLiveAt?: number
      }
      scope.document.addEventListener('DOMContentLoaded', () => {
        const root = scope.document.getElementById('root') as Root | null
        if (!root) return
        const observer = new scope.MutationObserver(() => {
          if (root.hasAttribute('inert')) return
          scope.crvLiveAt = scope.performance.now()
          observer.disconnect()
        })
        observer.observe(root, { attributes: true })
      })
    })
  }

  /** When each part's chunk was asked for, by the page's clock, and when the page went live. */
  function fetched(page: Page): Promise<{ liveAt: number | null; parts: Record<string, number> }> {
    return page.evaluate((names) => {
      const scope = globalThis as unknown as {
        crvLiveAt?: number
        performance: { getEntriesByType(type: string): { name: string; startTime: number }[] }
      }
      const at: Record<string, number> = {}
      for (const entry of scope.performance.getEntriesByType('resource')) {
        const name = names.find((n) => new URL(entry.name).pathname.startsWith(`/assets/${n}-`))
        if (name !== undefined && !(name in at)) at[name] = entry.startTime
      }
      return { liveAt: scope.crvLiveAt ?? null, parts: at }
    }, parts)
  }

  it('leave the first visit’s scripts, and come once the page is live and idle', async () => {
    const context = await browser.newContext({
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 900 },
    })
    try {
      const page = await context.newPage()
      const problems = watchProblems(page)
      await recordLive(page)
      await page.goto(`${base}/`)
      await untilLive(page)
      // Fetched while the page is idle after it went live, none of them before.
      await expect
        .poll(async () => Object.keys((await fetched(page)).parts).sort(), { timeout: 30_000 })
        .toEqual([...parts].sort())
      const { liveAt, parts: at } = await fetched(page)
      expect(liveAt).not.toBeNull()
      for (const [name, time] of Object.entries(at)) expect(time, name).toBeGreaterThan(liveAt ?? 0)

      // Then the side menu opens on the first click with nothing more to fetch (once the parts'
      // own imports are in too); Escape closes it and gives the focus back to its button.
      await page.waitForLoadState('networkidle')
      const scripts = () =>
        page.evaluate(
          () =>
            performance
              .getEntriesByType('resource')
              .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/')).length,
        )
      const before = await scripts()
      const menuButton = page.getByRole('button', { name: 'Open menu' })
      await menuButton.click()
      const nav = page.getByRole('navigation', { name: 'Main menu' })
      await nav.getByRole('link', { name: 'Ideogram Training' }).waitFor()
      await page.keyboard.press('Escape')
      await nav.waitFor({ state: 'hidden' })
      await expect.poll(() => menuButton.evaluate((el) => el.matches(':focus'))).toBe(true)
      expect(await scripts()).toBe(before)

      // The language menu, as before: the selected language has the focus, Escape gives it back.
      const header = page.getByRole('banner')
      const languageButton = header.getByRole('button', { name: 'Language: English' })
      await languageButton.click()
      const menu = page.getByRole('menu', { name: 'Interface language' })
      await menu.waitFor()
      await expect
        .poll(() =>
          menu.getByRole('menuitem', { name: 'English' }).evaluate((el) => el.matches(':focus')),
        )
        .toBe(true)
      await page.keyboard.press('Escape')
      await menu.waitFor({ state: 'hidden' })
      await expect.poll(() => languageButton.evaluate((el) => el.matches(':focus'))).toBe(true)

      // A tooltip on hover, its text the button's name, gone when the pointer leaves.
      await page.mouse.move(0, 450)
      await languageButton.hover()
      const tooltip = page.getByRole('tooltip', { name: 'Language: English' })
      await tooltip.waitFor()
      await page.mouse.move(640, 600)
      await tooltip.waitFor({ state: 'hidden' })

      // The first toast.
      await page.getByRole('main').getByRole('button', { name: 'Joined Ideogram' }).click()
      await header.getByText('3 words selected').waitFor()
      await gestaltToggle(page, 'natural').click()
      await page.getByRole('status').filter({ hasText: 'Switched to Normal Training' }).waitFor()
      expect(problems, problems.join('\n')).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('are fetched on first use when not yet in: the side menu, a tooltip', async () => {
    const context = await browser.newContext({
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 900 },
    })
    try {
      const page = await context.newPage()
      const problems = watchProblems(page)
      await recordLive(page)
      // The drawer's and the tooltip's code are held back until after the click or the hover
      // (the page asks for them when idle).
      const hold = async (part: string) => {
        const state: { asked: boolean; release: () => void } = {
          asked: false,
          release: () => undefined,
        }
        const held = new Promise<void>((resolve) => (state.release = resolve))
        await page.route(`**/assets/${part}-*`, async (route: Route) => {
          state.asked = true
          await held
          await route.continue()
        })
        return state
      }
      const drawer = await hold('side-menu-drawer')
      const tip = await hold('tip-popup')
      await page.goto(`${base}/sidereal-time`)
      await page.getByRole('heading', { level: 1, name: 'Sidereal Time Calculator' }).waitFor()
      await untilLive(page)
      const menuButton = page.getByRole('button', { name: 'Open menu' })
      await menuButton.click()
      const nav = page.getByRole('navigation', { name: 'Main menu' })
      await expect.poll(() => drawer.asked).toBe(true)
      expect(await nav.isVisible()).toBe(false)
      drawer.release()
      await nav.getByRole('link', { name: 'Ideogram Training' }).waitFor()
      const { liveAt, parts: at } = await fetched(page)
      expect(at['side-menu-drawer']).toBeGreaterThan(liveAt ?? Infinity)
      // Escape closes it and the focus is back on its button.
      await page.keyboard.press('Escape')
      await nav.waitFor({ state: 'hidden' })
      await expect.poll(() => menuButton.evaluate((el) => el.matches(':focus'))).toBe(true)

      // The tooltip shows once its code is in, the pointer still on its button.
      const languageButton = page
        .getByRole('banner')
        .getByRole('button', { name: 'Language: English' })
      await languageButton.hover()
      await expect.poll(() => tip.asked).toBe(true)
      const tooltip = page.getByRole('tooltip', { name: 'Language: English' })
      expect(await tooltip.count()).toBe(0)
      tip.release()
      await tooltip.waitFor()
      const later = await fetched(page)
      expect(later.parts['tip-popup']).toBeGreaterThan(later.liveAt ?? Infinity)
      expect(problems, problems.join('\n')).toEqual([])
    } finally {
      await context.close()
    }
  })
})

/** The app has taken the shell over: the root is no longer inert. */
function isLive(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      !(globalThis as unknown as { document: Doc }).document
        .getElementById('root')
        ?.hasAttribute('inert'),
  )
}
