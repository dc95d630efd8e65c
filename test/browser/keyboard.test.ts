// Keyboard-only use of the descriptor trainer and the sidereal time page: every control reached
// with Tab, activated with Enter or Space, the focus always visible, and given back when a
// dialog closes. Each page is first waited for until the app has taken it over (`untilLive`):
// keys pressed on a pre-rendered page go nowhere (its root is inert), and a control focused just
// before the take-over is replaced by the app's own (on a busy machine: no Tab stop found, or
// the focus given back to a button no longer there).
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { seriousViolations } from './a11y.ts'
import { adminPhoneOf, signIn } from './accounts.ts'
import { untilLive, watchProblems, withBrowser } from './browser.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

const isFocused = (target: Locator) => target.evaluate((el) => el.matches(':focus'))

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user would; fails if
 * it is not reached within `limit` presses (it is not in the tab order).
 */
async function tabTo(page: Page, target: Locator, backwards = false, limit = 60): Promise<void> {
  await target.waitFor({ timeout: 30_000 })
  for (let i = 0; i < limit; i++) {
    if (await isFocused(target)) return
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab')
  }
  if (await isFocused(target)) return
  const focused = (await page.locator(':focus').evaluateAll((els) => els[0]?.outerHTML)) ?? 'body'
  throw new Error(`${String(target)} was not reached with Tab; the focus is on ${focused}`)
}

/**
 * How the focused element shows its focus: 'visible' when it matches :focus-visible and paints
 * an outline of at least 2 px, on itself or on the MUI button it is the input of (a checkbox),
 * or is a text field's input whose outlined border turned into the 2 px focus border, or a
 * slider's thumb with its halo. A class
 * name alone (MUI's `Mui-focusVisible`) is not a ring: stage chips had it and showed nothing.
 */
/** The few DOM members the check uses (the tests are type-checked without the DOM library). */
interface Styled {
  outlineStyle: string
  outlineWidth: string
  borderTopWidth: string
  boxShadow: string
}
interface PageNode {
  matches(selector: string): boolean
  closest(selector: string): PageNode | null
  querySelector(selector: string): PageNode | null
  ownerDocument: { defaultView: { getComputedStyle(node: PageNode): Styled } | null }
}

function indicatorOf(el: PageNode): string {
  if (!el.matches(':focus')) return 'not focused'
  if (!el.matches(':focus-visible')) return 'no :focus-visible'
  const view = el.ownerDocument.defaultView
  if (!view) return 'no window'
  const outlined = (e: PageNode | null) => {
    if (!e) return false
    const style = view.getComputedStyle(e)
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
  }
  const field = el.closest('.MuiInputBase-root.Mui-focused')
  const border = field?.querySelector('.MuiOutlinedInput-notchedOutline')
  const focusBorder = border ? parseFloat(view.getComputedStyle(border).borderTopWidth) >= 2 : false
  // A slider's thumb grows an 8 px halo (a box shadow) around itself.
  const thumb = el.closest('.MuiSlider-thumb')
  const halo = thumb ? view.getComputedStyle(thumb).boxShadow !== 'none' : false
  return outlined(el) || outlined(el.closest('.MuiButtonBase-root')) || focusBorder || halo
    ? 'visible'
    : 'no indicator'
}

async function focusIndicator(target: Locator): Promise<string> {
  return target.evaluate(indicatorOf)
}

async function expectFocusedVisibly(target: Locator): Promise<void> {
  await expect.poll(() => focusIndicator(target), { timeout: 10_000 }).toBe('visible')
}

async function shownWord(dialog: Locator): Promise<string> {
  const word = dialog.getByTestId('training-word')
  await word.waitFor({ timeout: 30_000 })
  return (await word.innerText()).trim()
}

/** Waits for the dialog to show a word other than `previous`. */
async function nextWord(dialog: Locator, previous: string): Promise<string> {
  const word = dialog.getByTestId('training-word')
  await expect
    .poll(async () => (await word.isVisible()) && (await word.innerText()).trim(), {
      timeout: 30_000,
    })
    .not.toBe(previous)
  return shownWord(dialog)
}

describe('keyboard only: the descriptor trainer', () => {
  it('selects a gestalt, trains with Enter, → and R, and gets the focus back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    const gestalts = (await (await fetch(`${base}/api/gestalts?language=en`)).json()) as {
      name: string
    }[]
    const gestalt = gestalts[0]
    if (!gestalt) throw new Error('no gestalts')

    // From the side menu, by keyboard.
    await page.goto(base + '/sidereal-time')
    await untilLive(page)
    await page.getByRole('heading', { level: 1, name: 'Sidereal Time Calculator' }).waitFor()
    const menuButton = page.getByRole('button', { name: 'Open menu' })
    await tabTo(page, menuButton)
    await expectFocusedVisibly(menuButton)
    await page.keyboard.press('Enter')
    const nav = page.getByRole('navigation', { name: 'Main menu' })
    const ideogram = nav.getByRole('link', { name: 'Ideogram Training' })
    await tabTo(page, ideogram)
    await expectFocusedVisibly(ideogram)
    await page.keyboard.press('Escape')
    await nav.waitFor({ state: 'hidden' })
    await expect.poll(() => isFocused(menuButton)).toBe(true)

    // Visitors reach the trainer by its address too (the menu lists it for everyone).
    await page.goto(base + '/descriptors')
    await untilLive(page)
    await page.getByRole('heading', { level: 1, name: 'Descriptor Training' }).waitFor()

    // A locked stage opens the sign-in dialog; Escape closes it and the focus comes back.
    const stage23 = page.getByRole('button', { name: /Stage 2-3/ })
    await tabTo(page, stage23)
    await expectFocusedVisibly(stage23)
    await page.keyboard.press('Enter')
    const signIn = page.getByRole('dialog', { name: 'Unlock Premium Features' })
    await signIn.waitFor()
    await expect.poll(() => signIn.evaluate((d) => d.matches(':focus-within'))).toBe(true)
    await page.keyboard.press('Escape')
    await signIn.waitFor({ state: 'hidden' })
    await expect.poll(() => isFocused(stage23)).toBe(true)

    // Space ticks a category's checkbox; Start Training, enabled by it, starts on Enter.
    const checkbox = page.getByRole('checkbox', { name: `Select ${gestalt.name}` })
    await tabTo(page, checkbox)
    await expectFocusedVisibly(checkbox)
    await page.keyboard.press('Space')
    await expect.poll(() => checkbox.isChecked()).toBe(true)
    const start = page.getByRole('button', { name: 'Start Training' })
    await tabTo(page, start, true)
    await expectFocusedVisibly(start)
    await page.keyboard.press('Enter')

    const dialog = page.getByRole('dialog', { name: /Descriptor Training/ })
    const first = await shownWord(dialog)
    // The focus moved into the dialog, which holds it.
    await expect.poll(() => dialog.evaluate((d) => d.matches(':focus-within'))).toBe(true)
    expect(await seriousViolations(page)).toEqual([])

    // Enter and → for the next word, R to reveal the related words.
    await page.keyboard.press('Enter')
    const second = await nextWord(dialog, first)
    await page.keyboard.press('ArrowRight')
    const third = await nextWord(dialog, second)
    const topOf = () => dialog.evaluate((d) => Math.round(d.getBoundingClientRect().top))
    const top = await topOf()
    await page.keyboard.press('r')
    const related = dialog.getByRole('list', { name: 'Related Descriptors' })
    await related.waitFor()
    // The dialog grows downwards; its top stays where the eyes are (issue [11] item 7).
    expect(await topOf()).toBe(top)
    expect(await related.getByRole('listitem').count()).toBeGreaterThan(0)
    expect(await seriousViolations(page)).toEqual([])

    // The dialog's own buttons work from the keyboard too, and Tab stays inside it.
    const next = dialog.getByRole('button', { name: 'Next' })
    await tabTo(page, next)
    await expectFocusedVisibly(next)
    await page.keyboard.press('Space')
    const fourth = await nextWord(dialog, third)
    // Next kept the focus while the word loaded: a disabled button drops it to the dialog's frame.
    expect(await isFocused(next)).toBe(true)
    expect(await related.count()).toBe(0)
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      // The trap brings a focus that left back at once; poll for the settled state.
      await expect
        .poll(() => dialog.evaluate((d) => d.matches(':focus-within')), {
          timeout: 2_000,
          message: `Tab ${i + 1} left the dialog`,
        })
        .toBe(true)
    }
    expect(fourth).not.toBe('')

    // Escape ends the session; the focus returns to Start Training, visibly.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect.poll(() => isFocused(start), { timeout: 10_000 }).toBe(true)
    await expectFocusedVisibly(start)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('chooses the training language with the keyboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/descriptor-training')
    await untilLive(page)
    await page.getByRole('heading', { level: 1, name: 'Descriptor Training' }).waitFor()
    const language = page.getByRole('combobox', { name: 'Language' })
    await tabTo(page, language)
    await expectFocusedVisibly(language)
    await page.keyboard.press('Enter')
    const listbox = page.getByRole('listbox')
    await listbox.waitFor()
    const german = listbox.getByRole('option', { name: /Deutsch/ })
    // Arrow keys move through the options until Deutsch is active.
    for (let i = 0; i < 5 && !(await isFocused(german)); i++) await page.keyboard.press('ArrowDown')
    await expect.poll(() => isFocused(german)).toBe(true)
    await page.keyboard.press('Enter')
    await listbox.waitFor({ state: 'hidden' })
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('preferredLanguage')))
      .toBe('de')
    // Its flag is drawn (an SVG), not an emoji that shows as two letters or an empty box
    // where no colour emoji font is installed.
    expect(await language.locator('svg').count()).toBe(1)
    expect(await language.innerText()).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u)
    await expect.poll(() => isFocused(language)).toBe(true)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })
})

describe('keyboard only: the sidereal time page', () => {
  it('switches modes, calculates for a city and opens the article', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      geolocation: { latitude: 52.52, longitude: 13.405 },
      permissions: ['geolocation'],
      timezoneId: 'America/Chicago',
    })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/sidereal-time')
    await untilLive(page)
    await page.getByTestId('lst-formatted').waitFor({ timeout: 30_000 })

    // The mode toggle is one tab stop with a roving focus: Tab reaches the selected mode,
    // the arrow keys move between the modes, Space or Enter chooses one.
    const auto = page.getByRole('button', { name: 'Auto Mode' })
    const custom = page.getByRole('button', { name: 'Custom Mode' })
    await tabTo(page, auto)
    await expectFocusedVisibly(auto)
    await page.keyboard.press('ArrowRight')
    await expectFocusedVisibly(custom)
    await page.keyboard.press('Space')
    await expect.poll(() => custom.getAttribute('aria-pressed')).toBe('true')

    const city = page.getByLabel('City (optional)')
    await tabTo(page, city)
    await expectFocusedVisibly(city)
    await page.keyboard.type('Paris, TX')
    const calculate = page.getByRole('button', { name: 'Calculate LST' })
    await tabTo(page, calculate)
    await expectFocusedVisibly(calculate)
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('place').textContent(), { timeout: 30_000 })
      .toBe('Paris, Texas, United States')

    // Enter in the city field submits the form as well.
    await tabTo(page, city, true)
    await page.keyboard.press('Control+A')
    await page.keyboard.type('Berlin')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('place').textContent(), { timeout: 30_000 })
      .toMatch(/^Berlin/)

    const readMore = page.getByRole('button', { name: 'Read More' })
    await tabTo(page, readMore)
    await expectFocusedVisibly(readMore)
    await page.keyboard.press('Enter')
    const showLess = page.getByRole('button', { name: 'Show Less' })
    await expect.poll(() => showLess.getAttribute('aria-expanded')).toBe('true')
    expect(await isFocused(showLess)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])

    await tabTo(page, custom, true)
    await page.keyboard.press('ArrowLeft')
    await expectFocusedVisibly(auto)
    await page.keyboard.press('Enter')
    await expect.poll(() => auto.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => page.getByTestId('auto-latitude').textContent()).toBe('52.5200')
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })
})

// WCAG 2.4.7 on every page: each stop of the Tab order, from the top of the page until the
// focus comes round again, shows a focus ring (`indicatorOf`). Issue [11] item 5.
describe('keyboard only: the focus is visible on every control', () => {
  const pages: { path: string; admin?: boolean }[] = [
    { path: '/' },
    { path: '/descriptors' },
    { path: '/sidereal-time' },
    { path: '/practice' },
    { path: '/admin/descriptors', admin: true },
    { path: '/admin-panel', admin: true },
    { path: '/admin/targets', admin: true },
    { path: '/export-data', admin: true },
  ]
  let context: BrowserContext
  let signedIn = false

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  })
  afterAll(async () => {
    await context?.close()
  })

  it.each(pages.map((p) => [p.path, p] as const))('%s', async (path, { admin }) => {
    const page = await context.newPage()
    const problems = watchProblems(page)
    // The visitor's pages come first; then the administrator signs in once.
    if (admin && !signedIn) {
      await page.goto(base + '/sidereal-time')
      await untilLive(page)
      await signIn(page, base, adminPhone)
      signedIn = true
    }
    await page.goto(base + path)
    await untilLive(page)
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 45_000 })
    await page.waitForLoadState('networkidle')
    const unseen: string[] = []
    let stops = 0
    let first: string | null = null
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press('Tab')
      const stop = await page.locator('body').evaluate((body) => {
        const el = body.ownerDocument.activeElement
        if (!el || el === body) return null
        const name =
          el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40) ?? ''
        return `${el.tagName.toLowerCase()}[${el.getAttribute('role') ?? ''}] "${name}"`
      })
      if (stop === null) break
      if (stop === first) break
      first ??= stop
      stops++
      const indicator = await page.locator(':focus').evaluate(indicatorOf)
      if (indicator !== 'visible') unseen.push(`${stop}: ${indicator}`)
    }
    // At least the header's menu, title and account buttons (an administrator without words of
    // their own has nothing to export: those buttons are disabled, out of the Tab order).
    expect(stops).toBeGreaterThanOrEqual(3)
    expect(unseen).toEqual([])
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})
