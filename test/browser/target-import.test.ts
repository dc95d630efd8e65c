// Importing a collection of practice targets from the admin page (issue [24] item 4), on a
// desktop and on a 390 px phone: the fixture collection's manifest and pictures are chosen, the
// check (a dry run) shows row by row what can be added and why the rest is refused, and the
// import adds the accepted rows to the pool, whose targets then show on the page.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { seriousViolations } from './a11y.ts'
import { adminPhoneOf, signInByOutbox } from './accounts.ts'
import { watchProblems, withBrowser } from './browser.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
const shots = process.env.IMPORT_SCREENSHOTS
const fixtures = fileURLToPath(
  new URL('../../services/practice/test/fixtures/import/', import.meta.url),
)

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
}

/** The pictures chosen: all of the collection but its two made for the tests' lower limits. */
const PICTURES = [
  'sunset.jpg',
  'forest.png',
  'city.webp',
  'waves.jpg',
  'sunset-q35.jpg',
  'meadow.jpg',
  'bridge.jpg',
  'notes.jpg',
  'field.jpg',
  'desert.jpg',
]
const MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' }
const file = (name: string) => ({
  name,
  mimeType: name.endsWith('.csv') ? 'text/csv' : (MIME[name.split('.').pop() ?? ''] ?? ''),
  buffer: readFileSync(join(fixtures, name)),
})

let browser: Browser
let storageState: Awaited<ReturnType<BrowserContext['storageState']>>

withBrowser((launched) => (browser = launched))
beforeAll(async () => {
  // One sign-in for both journeys (a second code for the same number waits out a cooldown).
  const context = await browser.newContext()
  await signInByOutbox(context.request, base, adminPhone)
  storageState = await context.storageState()
  await context.close()
})

async function screenshot(page: Page, name: string) {
  // The dialog scrolls inside the screen: a full-page shot would show the page behind it.
  if (shots)
    await page.screenshot({ path: `${shots}/${name}.png`, fullPage: name.includes('pool') })
}

async function importJourney(options: BrowserContextOptions, device: string) {
  const context = await browser.newContext({ ...options, storageState })
  const page = await context.newPage()
  const problems = watchProblems(page)
  await page.goto(`${base}/admin/targets`)
  await page.getByRole('heading', { level: 1, name: 'Practice targets' }).waitFor()
  const pool = `Collection on a ${device} ${Date.now()}`
  await page.getByLabel('New pool name').fill(pool)
  await page.getByRole('button', { name: 'Create pool' }).click()
  await expect
    .poll(() => page.getByRole('combobox', { name: 'Pool', exact: true }).innerText())
    .toContain(pool)

  await page.getByRole('button', { name: 'Import a collection' }).click()
  const dialog = page.getByRole('dialog', { name: /^Import a collection/ })
  await dialog.getByText(`Into the pool “${pool}”`).waitFor()
  await dialog.locator('input[type=file][accept*=".csv"]').setInputFiles(file('manifest.csv'))
  await dialog.locator('input[type=file][multiple]').setInputFiles(PICTURES.map(file))
  await dialog.getByRole('button', { name: 'Manifest: manifest.csv' }).waitFor()
  await dialog.getByRole('button', { name: /^10 pictures \(\d+ kB\)$/ }).waitFor()
  await dialog.getByRole('button', { name: 'Check', exact: true }).click()

  await dialog
    .getByRole('status')
    .filter({
      hasText: '4 rows of 14 can be added, 10 refused. Nothing is stored until you import.',
    })
    .waitFor()
  const rows = dialog
    .getByRole('list', { name: 'Rows of the manifest' })
    .getByRole('listitem', { name: /^Row \d+: / })
  await expect.poll(() => rows.count()).toBe(14)
  const row = (n: number, title: string) =>
    dialog.getByRole('listitem', { name: `Row ${n}: ${title}` })
  await expect
    .poll(() => row(2, 'Sunset over the hills').innerText())
    .toMatch(/Can be added[\s\S]*sun/)
  for (const [n, title, reason] of [
    [6, 'Sunset, once more', 'The same picture as row 2.'],
    [
      7,
      'A meadow',
      'The licence “CC-BY-NC-4.0” is not allowed. Allowed: CC0, public domain, our own, CC BY and CC BY-SA (with an attribution).',
    ],
    [8, 'A bridge', 'This licence needs an attribution (who made the picture).'],
    [9, 'Notes', 'Not a JPEG, PNG, WebP or GIF picture.'],
    [10, 'Too many pixels', 'The picture is not among the chosen files.'],
    [12, 'A field and a barn', 'Not in the vocabulary: blorf.'],
    [13, 'desert.jpg', 'Missing: title.'],
    [
      15,
      'A remote picture',
      'Pictures named by a URL are imported only with the command npm run targets:import.',
    ],
  ] as const)
    await expect.poll(() => row(n, title).innerText()).toContain(reason)
  await dialog.getByText('Columns not read: photographer').waitFor()
  // Nothing wider than the screen (a phone would zoom the whole page out).
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
    options.viewport?.width ?? 0,
  )
  expect(await seriousViolations(page)).toEqual([])
  await screenshot(page, `import-check-${device}`)

  await dialog.getByRole('button', { name: 'Refused (10)' }).click()
  await expect.poll(() => rows.count()).toBe(10)
  await screenshot(page, `import-refused-${device}`)
  await dialog.getByRole('button', { name: 'All (14)' }).click()

  await dialog.getByRole('button', { name: 'Import 4 targets' }).click()
  await dialog
    .getByRole('status')
    .filter({ hasText: `4 targets added to ${pool}; 10 refused.` })
    .waitFor()
  await expect.poll(() => row(4, 'A city at night').innerText()).toContain('Added')
  await screenshot(page, `import-done-${device}`)
  await dialog.getByRole('button', { name: 'Close' }).click()

  for (const title of ['Sunset over the hills', 'A forest', 'A city at night', 'Waves'])
    await page.getByRole('heading', { level: 3, name: title }).waitFor()
  await expect
    .poll(() => page.getByRole('combobox', { name: 'Pool', exact: true }).innerText())
    .toContain('(4 active of 4)')
  await screenshot(page, `import-pool-${device}`)
  expect(problems, problems.join('\n')).toEqual([])
  // The refresh cookie is rotated as the page uses it: the next journey goes on with this one's.
  storageState = await context.storageState()
  await context.close()
}

describe('importing a collection from the admin page', () => {
  it('checks and imports the fixture collection on a desktop', async () => {
    await importJourney(DESKTOP, 'desktop')
  })

  it('checks and imports the fixture collection on a 390 px phone', async () => {
    await importJourney(PHONE, 'phone')
  })
})
