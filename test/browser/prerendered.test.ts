// A first visit's pre-rendered page (issue [12], a phone's first load): the public pages come
// as HTML the browser paints before any of the app's code has run, in the visitor's language;
// the app then takes those very elements over (nothing drawn twice) and the page works.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launch, watchProblems } from './browser.ts'

const base = inject('baseUrl')
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

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

/** The app has taken the shell over: the root is no longer inert. */
function isLive(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      !(globalThis as unknown as { document: Doc }).document
        .getElementById('root')
        ?.hasAttribute('inert'),
  )
}
