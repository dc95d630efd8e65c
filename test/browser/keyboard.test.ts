// Keyboard-only use of the descriptor trainer and the sidereal time page: every control reached
// with Tab, activated with Enter or Space, the focus always visible, and given back when a
// dialog closes.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { seriousViolations } from './a11y.ts'
import { launch, watchProblems } from './browser.ts'

const base = inject('baseUrl')
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

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
 * How the focused element shows its focus: 'visible' when it matches :focus-visible and draws
 * an indicator — an outline, a box shadow, or MUI's focus ring (`Mui-focusVisible` on the
 * button base, `Mui-focused` on a text field), which both paint.
 */
async function focusIndicator(target: Locator): Promise<string> {
  return target.evaluate((el) => {
    if (!el.matches(':focus')) return 'not focused'
    if (!el.matches(':focus-visible')) return 'no :focus-visible'
    const style = el.ownerDocument.defaultView?.getComputedStyle(el)
    if (!style) return 'no window'
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
    const ring =
      outline ||
      style.boxShadow !== 'none' ||
      el.closest('.Mui-focusVisible') !== null ||
      el.closest('.Mui-focused') !== null
    return ring ? 'visible' : 'no indicator'
  })
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

    // Visitors reach the trainer by its address (the menu lists it for administrators).
    await page.goto(base + '/descriptors')
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
    await page.keyboard.press('r')
    const related = dialog.getByRole('list', { name: 'Related Descriptors' })
    await related.waitFor()
    expect(await related.getByRole('listitem').count()).toBeGreaterThan(0)
    expect(await seriousViolations(page)).toEqual([])

    // The dialog's own buttons work from the keyboard too, and Tab stays inside it.
    const next = dialog.getByRole('button', { name: 'Next' })
    await tabTo(page, next)
    await expectFocusedVisibly(next)
    await page.keyboard.press('Space')
    const fourth = await nextWord(dialog, third)
    expect(await related.count()).toBe(0)
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      expect(await dialog.evaluate((d) => d.matches(':focus-within'))).toBe(true)
    }
    expect(fourth).not.toBe('')

    // Escape ends the session; the focus returns to Start Training, visibly.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect.poll(() => isFocused(start), { timeout: 10_000 }).toBe(true)
    await expectFocusedVisibly(start)
    expect(problems).toEqual([])
    await context.close()
  })

  it('chooses the training language with the keyboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/descriptor-training')
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
    await expect.poll(() => isFocused(language)).toBe(true)
    expect(problems).toEqual([])
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
    expect(problems).toEqual([])
    await context.close()
  })
})
