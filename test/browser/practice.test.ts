// Practice sessions as people use them: an administrator builds a pool on /admin/targets, a user
// runs sessions end to end on a desktop and on a phone (drawing with real pointer events), the
// autosave survives a reload, the reveal's commitment is verified in the page, the statistics
// count the sessions, and a visitor runs a trial that saves nothing.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { grainyJpeg } from '../pictures.ts'
import { adminPhone, newPhone, signIn } from './accounts.ts'
import { launch, watchProblems } from './browser.ts'

const base = inject('baseUrl')
const shots = process.env.PRACTICE_SCREENSHOTS
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

async function screenshot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true })
}

/** Draws a zig-zag on the pad with the mouse: pointer down, moves, up. */
async function drawOn(page: Page, padName: string) {
  const pad = page.getByRole('img', { name: padName })
  await pad.scrollIntoViewIfNeeded()
  const box = await pad.boundingBox()
  if (!box) throw new Error(`no pad ${padName}`)
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.7)
  await page.mouse.down()
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(
      box.x + box.width * (0.2 + i * 0.05),
      box.y + box.height * (i % 2 ? 0.3 : 0.7),
      { steps: 3 },
    )
  await page.mouse.up()
}

async function addWord(page: Page, column: string, word: string) {
  const input = page.getByRole('combobox', { name: column })
  await input.fill(word)
  await input.press('Enter')
}

/** One session from the start page to the verified reveal; returns the rank shown. */
async function runSession(page: Page, options: { reload?: boolean; city?: string } = {}) {
  await page.goto(`${base}/practice`)
  await page.getByLabel(/Or a city/).fill(options.city ?? '')
  await page.getByRole('button', { name: 'Start a session' }).click()
  await page.waitForURL(/\/practice\/session\//)
  await page.getByRole('heading', { level: 1, name: /^Session \d{4}-\d{4}$/ }).waitFor()
  // With a city, the local sidereal time there is recorded with the session.
  if (options.city) await page.getByText(/\d{2}:\d{2} LST/).waitFor()
  await drawOn(page, 'Ideogram 1')
  await page.getByLabel('A component (the feel of the motion)').fill('rising then flat')
  await page.getByLabel('B component (first gestalt)').fill('land')
  await addWord(page, 'Textures', 'rough')
  await addWord(page, 'Temperatures', 'cold')
  await page.getByRole('textbox', { name: 'Summary' }).fill('a tall structure near water')
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor({ timeout: 15_000 })
  if (options.reload) {
    await page.reload()
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Summary' }).inputValue())
      .toBe('a tall structure near water')
    await page.getByRole('button', { name: 'rough' }).or(page.getByText('rough')).first().waitFor()
  }
  await page.getByRole('button', { name: 'Lock and see the candidates' }).click()
  await page
    .getByRole('dialog', { name: 'Lock the write-up?' })
    .getByRole('button', { name: 'Lock' })
    .click()
  const judging = page.getByRole('region', { name: 'Judging' })
  await judging.waitFor()
  // Put the last candidate first, by the keyboard-and-touch buttons.
  await judging.getByRole('button', { name: /Move candidate 5 up/ }).click()
  await judging.getByRole('button', { name: 'Judge and reveal the target' }).click()
  const reveal = page.getByRole('region', { name: 'Reveal' })
  await reveal.waitFor()
  const rankText = await reveal.getByText(/You ranked the target \d+ of 5/).innerText()
  await reveal.getByRole('button', { name: 'Verify the commitment' }).click()
  await reveal
    .getByRole('status')
    .filter({ hasText: 'Commitment verified' })
    .waitFor({ timeout: 15_000 })
  return Number(/ranked the target (\d+)/.exec(rankText)?.[1])
}

describe('practice', () => {
  it('lets an administrator build a pool with uploaded, tagged targets', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/admin/targets`)
    await signIn(page, base, adminPhone)
    await page.getByRole('heading', { level: 1, name: 'Practice targets' }).waitFor()
    const name = `Pool ${Date.now()}`
    await page.getByLabel('New pool name').fill(name)
    await page.getByRole('button', { name: 'Create pool' }).click()
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Pool', exact: true }).innerText())
      .toContain(name)
    await page.getByRole('button', { name: 'Upload targets' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upload targets' })
    const files = await Promise.all(
      [0, 1].map(async (i) => ({
        name: `harbour-${i}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await grainyJpeg(640, 480),
      })),
    )
    await dialog.locator('input[type=file]').setInputFiles(files)
    const tags = dialog.getByRole('combobox', { name: /Tags/ }).first()
    await tags.fill('cold')
    await page.getByRole('option', { name: /cold/ }).first().click()
    await dialog.getByLabel('Feedback').first().fill('A cold harbour at dawn.')
    await dialog.getByRole('button', { name: /^Upload 2/ }).click()
    await dialog.getByRole('status').filter({ hasText: '2 of 2 targets added.' }).waitFor()
    await screenshot(page, 'admin-upload')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page
      .getByRole('article', { name: 'harbour 0' })
      .or(page.getByText('harbour 0'))
      .first()
      .waitFor()
    await screenshot(page, 'admin-targets')
    expect(problems).toEqual([])
    await context.close()
  })

  it('runs three sessions on a desktop, survives a reload, and counts them in the statistics', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())
    for (let i = 0; i < 3; i++) {
      const rank = await runSession(page, {
        reload: i === 0,
        ...(i === 1 ? { city: 'Berlin' } : {}),
      })
      expect(rank).toBeGreaterThanOrEqual(1)
      expect(rank).toBeLessThanOrEqual(5)
      if (i === 0) await screenshot(page, 'desktop-reveal')
    }
    await page.goto(`${base}/practice/stats`)
    await page.getByRole('heading', { level: 1, name: 'Practice statistics' }).waitFor()
    await page.getByText('3 sessions, 3 judged.').waitFor()
    await page.getByText(/7 more before the statistics mean anything/).waitFor()
    await page.getByText('2 judged sessions have no sidereal time (no location).').waitFor()
    await expect
      .poll(() => page.getByRole('region', { name: 'History' }).getByRole('link').count())
      .toBe(3)
    await screenshot(page, 'desktop-stats')
    expect(problems).toEqual([])
    await context.close()
  })

  it('runs a session on a 390-pixel phone with touch-sized controls and no sideways scroll', async () => {
    const context: BrowserContext = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())
    await runSession(page)
    // Evaluated in the page, where `document` exists (this file is type-checked without the DOM).
    const overflow = (await page.evaluate(
      'document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth',
    )) as number
    expect(overflow).toBeLessThanOrEqual(0)
    await screenshot(page, 'phone-reveal')
    expect(problems).toEqual([])
    await context.close()
  })

  it('gives a visitor a trial that verifies, without saving anything', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await page.getByRole('button', { name: 'Try one session (not saved)' }).click()
    await page.getByRole('button', { name: 'Start the trial' }).click()
    await page.getByText('A trial: nothing is saved.').waitFor()
    await addWord(page, 'Textures', 'rough')
    await page.getByRole('button', { name: 'Lock and see the candidates' }).click()
    const judging = page.getByRole('region', { name: 'Judging' })
    await judging.getByRole('button', { name: 'Judge and reveal the target' }).click()
    const reveal = page.getByRole('region', { name: 'Reveal' })
    await reveal.getByRole('button', { name: 'Verify the commitment' }).click()
    await reveal.getByRole('status').filter({ hasText: 'Commitment verified' }).waitFor()
    await screenshot(page, 'visitor-trial')
    expect(problems).toEqual([])
    await page.close()
  })
})
