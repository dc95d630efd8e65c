// Practice sessions as people use them: an administrator builds a pool on /admin/targets, a user
// runs sessions end to end on a desktop and on a phone (drawing with real pointer events), the
// autosave survives a reload, a second start is answered with the open session to continue, the
// reveal is checked in the page against the commitments this browser kept at the start (and
// fails when the judging's answer is tampered with), the receipt downloads and verifies, the
// statistics count the sessions, and a visitor runs a trial that saves nothing.
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { parseReceipt, verifyReceipt } from '@crv/contracts/practice-receipt'
import type { PracticeReceipt } from '@crv/contracts/practice-receipt'
import { grainyJpeg } from '../pictures.ts'
import { adminPhoneOf, newPhone, signIn } from './accounts.ts'
import { watchProblems, withBrowser } from './browser.ts'
import type { ExpectedFailure } from './browser.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
const shots = process.env.PRACTICE_SCREENSHOTS
let browser: Browser

withBrowser((launched) => (browser = launched))

async function screenshot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true })
}

const DESKTOP = { viewport: { width: 1366, height: 850 } }
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const HEX = /^[0-9a-f]{64}$/
/** The start refused while a session is open: the page expects it and shows Continue. */
const SESSION_OPEN: ExpectedFailure = { path: '/api/practice/sessions', status: 409 }

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

/**
 * Starts a session from the start page, picking `place` where the city's name fits several;
 * its id, once its page is up.
 */
async function startSession(page: Page, city = '', place?: string): Promise<string> {
  await page.goto(`${base}/practice`)
  await page.getByLabel(/Or a city/).fill(city)
  await page.getByRole('button', { name: 'Start a session' }).click()
  if (place) await page.getByTestId('place-choice').getByRole('button', { name: place }).click()
  await page.waitForURL(/\/practice\/session\//)
  await page.getByRole('heading', { level: 1, name: /^Session \d{4}-\d{4}$/ }).waitFor()
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '')
}

async function untilSaved(page: Page) {
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor({ timeout: 15_000 })
}

/** A write-up with every stage a viewer fills in, and an AOL that must not be scored. */
async function writeFullWriteUp(page: Page) {
  await drawOn(page, 'Ideogram 1')
  await page.getByLabel('A component (the feel of the motion)').fill('rising then flat')
  await page.getByLabel('B component (first gestalt)').fill('land')
  await addWord(page, 'Textures', 'rough')
  await addWord(page, 'Temperatures', 'cold')
  await page.getByRole('textbox', { name: 'Analytic overlay, row 1' }).fill('lighthouse')
  await page.getByRole('textbox', { name: 'Summary' }).fill('a tall structure near water')
  await untilSaved(page)
}

/**
 * The save bar, on the fields of a write-up scrolled under it (the Sounds field, the sketch
 * pad): nothing of them is drawn over the bar (a label printed over 'Saved' before), and the
 * field taken up (focused, brought into view) ends up clear of the bar, not under it.
 */
async function expectBarClearOfFields(page: Page) {
  const bar = page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .locator('..')
  const boxOf = async (locator: Locator) => {
    const box = await locator.boundingBox()
    if (!box) throw new Error(`${String(locator)} is not on the page`)
    return box
  }
  const overlap = async (field: Locator) => {
    const [f, b] = [await boxOf(field), await boxOf(bar)]
    return Math.max(0, Math.min(f.y + f.height, b.y + b.height) - Math.max(f.y, b.y))
  }
  const sounds = page.getByRole('combobox', { name: 'Sounds' })
  const pad = page.getByRole('img', { name: 'Sketch', exact: true })
  for (const [field, takeUp] of [
    [sounds, () => sounds.focus()],
    [pad, () => pad.scrollIntoViewIfNeeded()],
  ] as const) {
    // The field's top edge just under the bar's, which is stuck to the window's bottom then.
    const barTop = (page.viewportSize()?.height ?? 0) - (await boxOf(bar)).height
    await page.evaluate(`scrollBy(0, ${(await boxOf(field)).y - barTop + 6})`)
    expect(await overlap(field)).toBeGreaterThan(0)
    // The bar (inside its rounded corners) looks the same with the write-up hidden: nothing
    // of it shows through.
    const { x, y, width, height } = await boxOf(bar)
    const inside = { x: x + 8, y: y + 8, width: width - 16, height: height - 16 }
    const drawn = await page.screenshot({ clip: inside })
    await bar.evaluate((b) => b.previousElementSibling?.setAttribute('style', 'visibility:hidden'))
    const alone = await page.screenshot({ clip: inside })
    await bar.evaluate((b) => b.previousElementSibling?.removeAttribute('style'))
    expect(drawn.equals(alone), 'the write-up shows through the bar').toBe(true)
    await takeUp()
    expect(await overlap(field)).toBe(0)
  }
}

/** Judges from the judging region, through its confirmation. */
async function judge(page: Page, judging: Locator) {
  await judging.getByRole('button', { name: 'Judge and reveal the target' }).click()
  await page
    .getByRole('dialog', { name: 'Judge with this ranking?' })
    .getByRole('button', { name: 'Judge', exact: true })
    .click()
}

/** Locks the write-up, moves the last candidate up one place, judges; the reveal. */
async function lockAndJudge(page: Page, candidates = 5): Promise<Locator> {
  await page.getByRole('button', { name: 'Lock and see the candidates' }).click()
  await page
    .getByRole('dialog', { name: 'Lock the write-up?' })
    .getByRole('button', { name: 'Lock' })
    .click()
  const judging = page.getByRole('region', { name: 'Judging' })
  await judging.waitFor()
  const last = String.fromCharCode(64 + candidates)
  await judging
    .getByRole('combobox', { name: `Place of candidate ${last}` })
    .selectOption(String(candidates - 1))
  await judge(page, judging)
  const reveal = page.getByRole('region', { name: 'Reveal' })
  await reveal.waitFor()
  return reveal
}

/** The value shown beside `label` in the reveal's verification. */
const field = (verify: Locator, label: string) =>
  verify
    .locator('dt', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) })
    .locator('xpath=following-sibling::dd[1]')
    .innerText()

/** Each check shown, as [label, 'Passed' | 'Failed']. */
async function checksShown(verify: Locator): Promise<[string, string][]> {
  const items = await verify.getByRole('listitem').allInnerTexts()
  return items.map((text) => {
    const [result = '', label = ''] = text.split(' · ')
    return [label.trim(), result.trim()]
  })
}

const ALL_PASSED: [string, string][] = [
  ['The target’s picture hashes to the revealed image SHA-256', 'Passed'],
  ['SHA-256(target id | image SHA-256 | secret) equals the commitment', 'Passed'],
  [
    'The candidates’ pictures, hashed and sorted, with the secret, give the candidate commitment',
    'Passed',
  ],
  ['The target is one of the candidates shown at the lock', 'Passed'],
]

/**
 * The reveal's verification, finished: every field shown, the commitments the ones published at
 * the start (kept on this device unless `source` says the server's), and each check's result.
 */
async function verification(page: Page, reveal: Locator, source: 'device' | 'server' = 'device') {
  const verify = reveal.getByRole('region', { name: 'Verify' })
  await verify
    .getByRole('status')
    .filter({ hasText: /^(Verified|Verification failed):/ })
    .waitFor({ timeout: 20_000 })
  const where = source === 'device' ? 'kept on this device' : 'server’s copy'
  const fields = {
    targetId: await field(verify, 'Target ID'),
    imageSha256: await field(verify, 'Image SHA-256'),
    nonce: await field(verify, 'Secret (nonce)'),
    commitment: await field(verify, `Commitment (${where})`),
    candidateCommitment: await field(verify, `Candidate commitment (${where})`),
  }
  expect(fields.targetId).toMatch(/^[0-9a-f-]{36}$/)
  for (const hash of [fields.imageSha256, fields.commitment, fields.candidateCommitment])
    expect(hash).toMatch(HEX)
  // The commitments checked are the ones the session page showed from the start.
  await page.getByText(`Commitment: ${fields.commitment}`).first().waitFor()
  await page.getByText(`Candidate commitment: ${fields.candidateCommitment}`).waitFor()
  const status = await verify
    .getByRole('status')
    .filter({ hasText: /^(Verified|Verification failed):/ })
    .innerText()
  return { verify, fields, status, checks: await checksShown(verify) }
}

/**
 * The reveal's target id and nonce, each whole within the screen's width and copied as it is by
 * its Copy button.
 */
async function expectCopied(page: Page, verify: Locator, values: [string, string][]) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
  const width = page.viewportSize()?.width ?? 0
  for (const [label, value] of values) {
    const shown = verify
      .locator('dt', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) })
      .locator('xpath=following-sibling::dd[1]')
    await shown.scrollIntoViewIfNeeded()
    const box = await shown.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= width, `${label} within the screen`).toBe(true)
    await shown.getByRole('button', { name: `Copy ${label}` }).click()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(value)
  }
}

/** Downloads the receipt from the page and reads it as the format says. */
async function downloadedReceipt(page: Page): Promise<PracticeReceipt> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download receipt (JSON)' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^crv-practice-receipt-\d{4}-\d{4}(-trial)?\.json$/)
  return parseReceipt(JSON.parse(await readFile(await download.path(), 'utf8')))
}

/**
 * The journey on one screen size: a session started and written, the page reloaded mid-write-up,
 * a second start refused with the open session to continue, then locked, judged, verified
 * against the commitments this browser kept, and its receipt downloaded and verified.
 */
async function journey(page: Page, name: string) {
  await page.goto(`${base}/practice`)
  await signIn(page, base, newPhone())
  const id = await startSession(page)
  await writeFullWriteUp(page)
  await expectBarClearOfFields(page)
  await page.reload()
  await expect
    .poll(() => page.getByRole('textbox', { name: 'Summary' }).inputValue())
    .toBe('a tall structure near water')
  await page.getByText('rough').first().waitFor()
  await page.getByText(/^This device kept a copy of both commitments at the start/).waitFor()

  // Back on the start page the open session is offered first; a second start is refused.
  await page.goto(`${base}/practice`)
  const banner = page.getByRole('alert').filter({ hasText: /is not finished: in progress/ })
  await banner.getByRole('link', { name: 'Continue session' }).waitFor()
  await page.getByRole('button', { name: 'Start a session' }).click()
  const refused = page
    .getByRole('alert')
    .filter({ hasText: 'You already have a session open. Finish it before you start another.' })
  await refused.waitFor()
  await screenshot(page, `${name}-session-open`)
  await refused.getByRole('link', { name: 'Continue session' }).click()
  await page.waitForURL(`**/practice/session/${id}`)
  await expect
    .poll(() => page.getByRole('textbox', { name: 'Summary' }).inputValue())
    .toBe('a tall structure near water')

  const reveal = await lockAndJudge(page)
  const rank = Number(
    /ranked the target (\d+) of 5/.exec(
      await reveal.getByText(/You ranked the target \d+ of 5/).innerText(),
    )?.[1],
  )
  expect(rank).toBeGreaterThanOrEqual(1)
  expect(rank).toBeLessThanOrEqual(5)
  await reveal.getByText(/^The analytic judge ranked it \d+ of 5\.$/).waitFor()
  await reveal.getByText(/^chance: \d\.\d\d, the mean against the decoys$/).waitFor()
  await reveal.getByText('Analytic overlays (not scored)').waitFor()
  const { verify, fields, status, checks } = await verification(page, reveal)
  expect(status).toBe('Verified: the target and every candidate were fixed before you started.')
  expect(checks).toEqual(ALL_PASSED)
  await expectCopied(page, verify, [
    ['Target ID', fields.targetId],
    ['Secret (nonce)', fields.nonce],
  ])
  await screenshot(page, `${name}-reveal`)

  const receipt = await downloadedReceipt(page)
  expect(receipt).toMatchObject({
    sessionId: id,
    rank,
    commitments: {
      commitment: fields.commitment,
      candidateCommitment: fields.candidateCommitment,
      source: 'device',
    },
    reveal: { targetId: fields.targetId, nonce: fields.nonce },
    writeUp: { summary: 'a tall structure near water' },
  })
  expect(receipt.candidates).toHaveLength(5)
  const checked = await verifyReceipt(receipt)
  expect(checked.checks.filter((c) => !c.ok)).toEqual([])
  expect(checked.ok).toBe(true)
}

/** One quick session from the start page to the reveal, its verification finished. */
async function quickSession(page: Page, options: { city?: string; place?: string } = {}) {
  await startSession(page, options.city, options.place)
  // With a city, the local sidereal time there is recorded with the session.
  if (options.city) await page.getByText(/\d{2}:\d{2} LST/).waitFor()
  await addWord(page, 'Textures', 'rough')
  await untilSaved(page)
  const reveal = await lockAndJudge(page)
  return { reveal, ...(await verification(page, reveal)) }
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
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('runs a session on a desktop through a reload and a refused second start, verifies the reveal against the kept commitments, and hands over a receipt that verifies', async () => {
    const context = await browser.newContext(DESKTOP)
    const page = await context.newPage()
    const problems = watchProblems(page, [SESSION_OPEN])
    await journey(page, 'desktop')
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('runs the same on a 390-pixel phone with touch-sized controls and no sideways scroll', async () => {
    const context: BrowserContext = await browser.newContext(PHONE)
    const page = await context.newPage()
    const problems = watchProblems(page, [SESSION_OPEN])
    await journey(page, 'phone')
    // Evaluated in the page, where `document` exists (this file is type-checked without the DOM).
    const overflow = (await page.evaluate(
      'document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth',
    )) as number
    expect(overflow).toBeLessThanOrEqual(0)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('fails the verification when the judging’s answer is tampered with, and passes it when not', async () => {
    const context = await browser.newContext(DESKTOP)
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())

    const honest = await quickSession(page)
    expect(honest.checks).toEqual(ALL_PASSED)

    // Another nonce than the one committed: both commitments fail, the pictures still match.
    await page.route('**/api/practice/sessions/*/judge', async (route) => {
      const response = await route.fetch()
      const reveal = (await response.json()) as { nonce: string }
      const nonce = `${reveal.nonce.startsWith('0') ? '1' : '0'}${reveal.nonce.slice(1)}`
      await route.fulfill({ response, json: { ...reveal, nonce } })
    })
    const nonce = await quickSession(page)
    expect(nonce.status).toBe(
      'Verification failed: this reveal does not match what was committed at the start.',
    )
    expect(nonce.checks.map(([, result]) => result)).toEqual([
      'Passed',
      'Failed',
      'Failed',
      'Passed',
    ])
    await screenshot(page, 'tampered-nonce')
    const receipt = await downloadedReceipt(page)
    const checked = await verifyReceipt(receipt)
    expect(checked.ok).toBe(false)
    expect(checked.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      'commitment',
      'candidateCommitment',
    ])
    await page.unroute('**/api/practice/sessions/*/judge')

    // Another candidate named as the target: its commitment and its picture do not fit.
    await page.route('**/api/practice/sessions/*/judge', async (route) => {
      const { ranking } = route.request().postDataJSON() as { ranking: string[] }
      const response = await route.fetch()
      const reveal = (await response.json()) as { targetId: string }
      const other = ranking.find((id) => id !== reveal.targetId)
      await route.fulfill({ response, json: { ...reveal, targetId: other } })
    })
    const target = await quickSession(page)
    expect(target.status).toMatch(/^Verification failed/)
    expect(target.checks.map(([, result]) => result)).toEqual([
      'Passed',
      'Failed',
      'Passed',
      'Failed',
    ])
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('checks against the server’s copy, labelled as such, when this browser kept none', async () => {
    const context = await browser.newContext(DESKTOP)
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())
    const id = await startSession(page)
    await addWord(page, 'Textures', 'rough')
    await untilSaved(page)
    // The browser's storage cleared, as a person may (or a session started on another device).
    await page.goto(`${base}/practice`)
    await page.evaluate(
      `new Promise((resolve, reject) => {
        const deletion = indexedDB.deleteDatabase('crv-practice')
        deletion.onsuccess = () => resolve(null)
        deletion.onerror = () => reject(deletion.error)
      })`,
    )
    await page.goto(`${base}/practice/session/${id}`)
    await page.getByText(/^This device has no copy of the commitments/).waitFor()
    const reveal = await lockAndJudge(page)
    await reveal.getByText(/^This device kept no copy of the commitments/).waitFor()
    const { status, checks } = await verification(page, reveal, 'server')
    expect(status).toMatch(/^Verified:/)
    expect(checks).toEqual(ALL_PASSED)
    const receipt = await downloadedReceipt(page)
    expect(receipt.commitments).toMatchObject({ source: 'server', keptAt: null })
    expect((await verifyReceipt(receipt)).ok).toBe(true)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('shows a session closed as abandoned read-only, with no lock, and its receipt still downloads', async () => {
    // No service worker: the session's answer, which it fetches, must pass the test's change.
    const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())
    const id = await startSession(page)
    await page.getByRole('textbox', { name: 'Summary' }).fill('a quiet lake')
    await untilSaved(page)
    // A day later the server answers with the session closed (a day is not waited for here).
    const abandonedAt = new Date(Date.now() + 25 * 3600_000).toISOString()
    await page.route(`**/api/practice/sessions/${id}`, async (route) => {
      if (route.request().method() !== 'GET') return route.continue()
      const response = await route.fetch()
      const session = (await response.json()) as object
      await route.fulfill({ response, json: { ...session, status: 'abandoned', abandonedAt } })
    })
    await page.reload()
    const closed = page.getByRole('alert').filter({ hasText: 'Closed as abandoned' })
    await closed.getByText(/counts at the chance rank/).waitFor()
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Summary' }).getAttribute('readonly'))
      .not.toBeNull()
    expect(await page.getByRole('button', { name: 'Lock and see the candidates' }).count()).toBe(0)
    await screenshot(page, 'phone-abandoned')
    const receipt = await downloadedReceipt(page)
    expect(receipt).toMatchObject({
      sessionId: id,
      writeUp: { summary: 'a quiet lake' },
      candidates: [],
      reveal: null,
      commitments: { source: 'device' },
    })
    // Nothing revealed: the receipt cannot vouch for the commitments.
    expect((await verifyReceipt(receipt)).checks.map((c) => [c.name, c.ok])).toEqual([
      ['revealed', false],
    ])
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('runs three sessions on a desktop and counts them in the statistics', async () => {
    const context = await browser.newContext(DESKTOP)
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())
    for (let i = 0; i < 3; i++) {
      const { checks } = await quickSession(
        page,
        // Berlin is Berlin, Germany without asking (the Berlins of Ohio are far smaller);
        // Springfield is asked about.
        i === 1
          ? { city: 'Springfield', place: 'Springfield, Missouri, United States' }
          : i === 2
            ? { city: 'Berlin' }
            : {},
      )
      expect(checks).toEqual(ALL_PASSED)
    }
    await page.goto(`${base}/practice/stats`)
    await page.getByRole('heading', { level: 1, name: 'Practice statistics' }).waitFor()
    await expect
      .poll(() => page.getByRole('region', { name: 'History' }).getByRole('link').count())
      .toBe(3)
    await screenshot(page, 'desktop-stats')
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('gives a visitor a trial that verifies and hands over a receipt, without saving anything', async () => {
    const page = await browser.newPage(DESKTOP)
    const problems = watchProblems(page)
    await page.goto(`${base}/practice`)
    await page.getByRole('button', { name: 'Try one session (not saved)' }).click()
    await page.getByRole('button', { name: 'Start the trial' }).click()
    await page.getByText('A trial: nothing is saved.').waitFor()
    await addWord(page, 'Textures', 'rough')
    await page.getByRole('textbox', { name: 'Summary' }).fill('a bridge over a river')
    await page.getByRole('button', { name: 'Lock and see the candidates' }).click()
    await judge(page, page.getByRole('region', { name: 'Judging' }))
    const reveal = page.getByRole('region', { name: 'Reveal' })
    const { status, checks, fields } = await verification(page, reveal)
    expect(status).toMatch(/^Verified:/)
    expect(checks).toEqual(ALL_PASSED)
    await screenshot(page, 'visitor-trial')
    const receipt = await downloadedReceipt(page)
    expect(receipt).toMatchObject({
      sessionId: null,
      commitments: { commitment: fields.commitment, source: 'device' },
      writeUp: { summary: 'a bridge over a river' },
    })
    expect(receipt.writeUpSha256).toMatch(HEX)
    expect(await verifyReceipt(receipt)).toMatchObject({ ok: true })
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})

// The statistics page of issue [22] "practice you can trust": both judges side by side, the
// exact probabilities never shown as 0, the sidereal windows compared only from 10 sessions in
// each, abandoned sessions, and declared series. Sessions are run through the API (the journeys
// above run them through the page). The shared kit's helpers this block adds (signing in by
// the API, axe) are loaded in its own beforeAll: the file's imports serve the journeys above.
describe('the statistics page: both judges, exact probabilities, declared series', () => {
  const kit = async () => ({
    signInByOutbox: (await import('./accounts.ts')).signInByOutbox,
    seriousViolations: (await import('./a11y.ts')).seriousViolations,
  })
  let signInByOutbox: Awaited<ReturnType<typeof kit>>['signInByOutbox']
  let seriousViolations: Awaited<ReturnType<typeof kit>>['seriousViolations']

  beforeAll(async () => {
    ;({ signInByOutbox, seriousViolations } = await kit())
  })

  /** The longitude where the local sidereal time is `hours` now (GMST, IAU 1982, to seconds). */
  function longitudeAt(hours: number): number {
    const days = Date.now() / 86_400_000 + 2_440_587.5 - 2_451_545
    const gmst = (((18.697374558 + 24.06570982441908 * days) % 24) + 24) % 24
    return (((((hours - gmst) * 15) % 360) + 540) % 360) - 180
  }

  /** One session through the API, as the page runs it: started, written, locked and judged. */
  async function sessionByApi(
    request: BrowserContext['request'],
    token: string,
    options: { candidates?: 5 | 10; longitude?: number; judge?: boolean } = {},
  ): Promise<void> {
    const headers = { authorization: `Bearer ${token}` }
    const where =
      options.longitude === undefined ? {} : { latitude: 20, longitude: options.longitude }
    const started = await request.post(`${base}/api/practice/sessions`, {
      headers,
      data: { candidates: options.candidates ?? 5, ...where },
    })
    expect(started.status(), await started.text()).toBe(201)
    const { id } = (await started.json()) as { id: string }
    if (options.judge === false) return
    const saved = await request.put(`${base}/api/practice/sessions/${id}`, {
      headers,
      data: { writeUp: { stage2: { textures: ['rough'], temperatures: ['cold'] } } },
    })
    expect(saved.ok(), await saved.text()).toBe(true)
    const locked = await request.post(`${base}/api/practice/sessions/${id}/lock`, { headers })
    const { candidates } = (await locked.json()) as { candidates: { id: string }[] }
    const judged = await request.post(`${base}/api/practice/sessions/${id}/judge`, {
      headers,
      data: { ranking: candidates.map((c) => c.id) },
    })
    expect(judged.ok(), `${judged.status()} ${await judged.text()}`).toBe(true)
  }

  it('declares a series, shows its progress, refuses another while it runs, then shows its result', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, base, newPhone())
    const page = await context.newPage()
    const problems = watchProblems(page, [{ path: '/api/practice/series', status: 409 }])
    await page.goto(`${base}/practice/stats`)
    const series = page.getByRole('region', { name: 'Declared series' })
    await series.getByText('No series declared yet.').waitFor()
    await series.getByText(/stopping when it looks good \(optional stopping\)/).waitFor()
    await series.getByLabel('Sessions (n, 5 to 1,000)').fill('4')
    await series.getByText('A whole number from 5 to 1,000.').waitFor()
    expect(await series.getByRole('button', { name: 'Declare the series' }).isDisabled()).toBe(true)
    await series.getByLabel('Sessions (n, 5 to 1,000)').fill('5')
    await series.getByRole('button', { name: '5', exact: true }).click()
    await series.getByLabel('Tested on').selectOption('self')
    await series.getByRole('button', { name: 'Declare the series' }).click()
    await series.getByText('5 sessions with 5 candidates, tested on your ranking').waitFor()
    await series.getByText('0 of 5 closed (0 started)').waitFor()
    await series.getByText('Its result is shown once all 5 sessions are closed.').waitFor()

    // A second series while the first runs: the server's refusal, in the form.
    await series.getByRole('button', { name: 'Declare the series' }).click()
    await series
      .getByRole('alert')
      .filter({ hasText: 'Your declared series is not complete yet' })
      .waitFor()
    expect(await seriousViolations(page)).toEqual([])

    for (let i = 0; i < 5; i++) await sessionByApi(context.request, token)
    await page.reload()
    await series.getByText('5 of 5 closed (5 started)').waitFor()
    const result = await series.innerText()
    expect(result).toMatch(/Sum of ranks \d+ \(chance: 15\), z = −?-?\d\.\d\d, p = [\d.×⁻⁰-⁹ ]+/)
    expect(result).toMatch(/First places \d \(chance: 1\.0\), p = [\d.]+/)
    expect(result).not.toContain('Its result is shown once')

    // A series is declared before its first session: not while one is open.
    await sessionByApi(context.request, token, { judge: false })
    await series.getByRole('button', { name: 'Declare the series' }).click()
    await series
      .getByRole('alert')
      .filter({ hasText: 'A series is declared before its first session' })
      .waitFor()
    await screenshot(page, 'stats-series')
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('sets your ranking beside the analytic judge and compares the sidereal windows from 10 sessions each', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, base, newPhone())
    for (let i = 0; i < 10; i++)
      await sessionByApi(context.request, token, { longitude: longitudeAt(1.5) })
    for (let i = 0; i < 9; i++)
      await sessionByApi(context.request, token, { longitude: longitudeAt(13.5) })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(`${base}/practice/stats`)

    const figures = page.getByRole('region', { name: 'Figures' })
    const table = figures.getByRole('table', { name: "Your ranking beside the analytic judge's" })
    await table.getByRole('columnheader', { name: 'Analytic judge' }).waitFor()
    await table.getByRole('columnheader', { name: 'You' }).waitFor()
    const exactP = table.getByRole('row', { name: /sum of ranks this low by chance \(exact\)/ })
    const cells = await exactP.getByRole('cell').allInnerTexts()
    expect(cells).toHaveLength(2)
    for (const p of cells) expect(p).toMatch(/^(1|0\.\d*[1-9]\d*|\d\.\d × 10⁻[⁰-⁹]+)$/)
    await figures.getByText(/^chance \(against the decoys\): \d\.\d{3}$/).waitFor()
    await figures.getByText('19 judged, 0 abandoned (counted at the chance rank)').waitFor()

    const sidereal = page.getByRole('region', { name: 'By sidereal time' })
    const inside = sidereal.getByRole('row', { name: /12:30–14:30 LST/ })
    await inside.getByText('needs 10 sessions').waitFor()
    await sidereal
      .getByText('Inside and outside are compared from 10 judged sessions in each window.')
      .waitFor()
    expect(await sidereal.getByRole('row', { name: /Other times/ }).innerText()).not.toContain(
      'needs',
    )

    await sessionByApi(context.request, token, { longitude: longitudeAt(13.5) })
    await page.reload()
    await sidereal
      .getByText(
        /^Inside against outside \(difference of the standardised rank scores\): z = −?-?\d+\.\d\d, p = .+ \(two-sided\)\.$/,
      )
      .waitFor()
    expect(await inside.innerText()).not.toContain('needs')
    await screenshot(page, 'stats-judges-sidereal')
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('on a phone, shows a probability too small for a double as a power of ten and an abandoned session', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    const token = await signInByOutbox(context.request, base, newPhone())
    for (let i = 0; i < 10; i++) await sessionByApi(context.request, token)
    const page = await context.newPage()
    const problems = watchProblems(page)
    // An extreme record and a session left for a day cannot be made in a test's time: the real
    // answer, with those figures set as the server gives them (Number.MIN_VALUE when too small).
    await page.route('**/api/practice/stats*', async (route) => {
      const response = await route.fetch()
      const stats = (await response.json()) as {
        sessions: number
        analytic: Record<string, unknown>
        history: Record<string, unknown>[]
      }
      const newest = stats.history[0] ?? {}
      const abandoned = {
        id: '00000000-0000-4000-8000-000000000001',
        trn: '0000-0001',
        startedAt: newest.startedAt,
        lstHours: null,
        status: 'abandoned',
        candidateCount: 5,
        abandonedAt: newest.startedAt,
      }
      await route.fulfill({
        response,
        json: {
          ...stats,
          sessions: stats.sessions + 1,
          abandoned: 1,
          hitsP: 3.2e-8,
          analytic: { ...stats.analytic, sumOfRanksP: Number.MIN_VALUE },
          history: [abandoned, ...stats.history],
        },
      })
    })
    await page.goto(`${base}/practice/stats`)
    await page.getByText('1 abandoned session counts at the chance rank.').waitFor()
    const table = page.getByRole('table', { name: "Your ranking beside the analytic judge's" })
    const hits = await table
      .getByRole('row', { name: /Probability of as many hits by chance/ })
      .getByRole('cell')
      .allInnerTexts()
    expect(hits[0]).toBe('3.2 × 10⁻⁸')
    const sums = await table
      .getByRole('row', { name: /sum of ranks this low by chance/ })
      .getByRole('cell')
      .allInnerTexts()
    expect(sums[1]).toBe('< 10⁻³²³')
    const history = page.getByRole('region', { name: 'History' })
    const row = history.getByRole('link', { name: /0000-0001/ })
    await row.getByText('Abandoned', { exact: true }).waitFor()
    expect(await row.innerText()).toMatch(/abandoned .+, counted at the chance rank/)

    const overflow = (await page.evaluate(
      'document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth',
    )) as number
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'phone-stats')

    // In German the sidereal table is wider than the phone: its z column is reached by
    // scrolling the table, not cut off at the card's edge.
    await page.evaluate(() => localStorage.setItem('crv.uiLanguage', 'de'))
    await page.reload()
    const z = page.getByRole('columnheader', { name: 'z', exact: true })
    const sidereal = page.getByRole('table').filter({ has: z })
    const siderealBox = await sidereal.boundingBox()
    if (!siderealBox) throw new Error('no sidereal table')
    await page.evaluate(`scrollBy(0, ${siderealBox.y - 200})`)
    // Swiped sideways over the table, as a person reaches a column off the screen.
    await page.mouse.move(200, 210)
    await page.mouse.wheel(600, 0)
    const zBox = await z.boundingBox()
    expect(zBox && zBox.x >= 0 && zBox.x + zBox.width <= 390, 'z within the screen').toBe(true)
    // Whole inside every box that clips it (the card cut it off before).
    const cutOff = await z.evaluate((cell) => {
      const own = cell.getBoundingClientRect()
      for (let box = cell.parentElement; box; box = box.parentElement) {
        if (box.ownerDocument.defaultView?.getComputedStyle(box).overflowX === 'visible') continue
        const clip = box.getBoundingClientRect()
        if (own.left < clip.left - 0.5 || own.right > clip.right + 0.5) return true
      }
      return false
    })
    expect(cutOff, 'z cut off').toBe(false)
    expect(await seriousViolations(page)).toEqual([])
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })
})
