// Judging made for pictures (issue [24], item 7): after the lock the page brings the candidates
// into view; each opens over the whole screen, where arrow keys (desktop) or a swipe (phone)
// go to the next, and a pinch zooms; the ranking is made by number and by dragging (mouse,
// finger, keyboard) and confirmed before the judging; a viewer who chose description only
// judges by tags, and no candidate's picture is fetched before the reveal.
import { describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core'
import { seriousViolations } from './a11y.ts'
import { newPhone, signIn } from './accounts.ts'
import { watchProblems, withBrowser } from './browser.ts'

const base = inject('baseUrl')
const shots = process.env.PRACTICE_SCREENSHOTS
let browser: Browser

withBrowser((launched) => (browser = launched))

const DESKTOP = { viewport: { width: 1366, height: 850 } }
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const LETTERS = ['A', 'B', 'C', 'D', 'E']

type Candidate = { id: string; imageUrl: string; tags: string[] }

async function screenshot(page: Page, name: string, fullPage = true) {
  // Transitions (a dialog fading in, rows moving aside) shown at their end.
  if (shots)
    await page.screenshot({ path: `${shots}/${name}.png`, fullPage, animations: 'disabled' })
}

/** Closes the sign-in's toast (it would cover the screenshots' dialogs for a few seconds). */
async function dismissSignedInToast(page: Page) {
  const toast = page.getByRole('status').filter({ hasText: 'Phone number verified successfully' })
  await toast.getByRole('button', { name: 'Close' }).click()
  await toast.waitFor({ state: 'hidden' })
}

/** Signs a new viewer in and starts a session with one word written and saved. */
async function startWrittenSession(page: Page) {
  await page.goto(`${base}/practice`)
  await signIn(page, base, newPhone())
  await dismissSignedInToast(page)
  await page.getByRole('button', { name: 'Start a session' }).click()
  await page.waitForURL(/\/practice\/session\//)
  const input = page.getByRole('combobox', { name: 'Textures' })
  await input.fill('rough')
  await input.press('Enter')
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor({ timeout: 15_000 })
}

/**
 * Locks from the session page, the lock's dialog showing description only as `shown` and
 * switched to `descriptionOnly` when given; the candidates as the lock answered them, in the
 * order their letters name.
 */
async function lock(
  page: Page,
  { descriptionOnly, shown, shot }: { descriptionOnly?: boolean; shown?: boolean; shot?: string },
): Promise<Candidate[]> {
  await page.getByRole('button', { name: 'Lock and see the candidates' }).click()
  const dialog = page.getByRole('dialog', { name: 'Lock the write-up?' })
  const mode = dialog.getByRole('switch', { name: 'Description only (no pictures)' })
  await mode.waitFor()
  if (shown !== undefined) expect(await mode.isChecked()).toBe(shown)
  if (descriptionOnly !== undefined && (await mode.isChecked()) !== descriptionOnly)
    await mode.click()
  if (shot) await screenshot(page, shot, false)
  const [answer] = await Promise.all([
    page.waitForResponse((r) => /\/api\/practice\/sessions\/[^/]+\/lock$/.test(r.url())),
    dialog.getByRole('button', { name: 'Lock', exact: true }).click(),
  ])
  expect(answer.status()).toBe(200)
  return ((await answer.json()) as { candidates: Candidate[] }).candidates
}

/** The judging region, once it is in view below the sticky header with its heading focused. */
async function broughtIntoView(page: Page): Promise<Locator> {
  const judging = page.getByRole('region', { name: 'Judging' })
  const heading = judging.getByRole('heading', { name: 'Rank the candidates' })
  await heading.waitFor()
  const height = page.viewportSize()?.height ?? 0
  await expect
    .poll(async () => {
      const box = await heading.boundingBox()
      return box !== null && box.y >= 48 && box.y < height / 3
    })
    .toBe(true)
  expect(await page.evaluate('window.scrollY')).toBeGreaterThan(200)
  expect(await heading.evaluate((h) => h === h.ownerDocument.activeElement)).toBe(true)
  return judging
}

/** The ranking shown, as the letters of the candidates from place 1 down. */
async function rankingShown(list: Locator): Promise<string[]> {
  const labels = await list
    .locator(':scope > li')
    .evaluateAll((items) => items.map((li) => li.getAttribute('aria-label') ?? ''))
  return labels.map((label, i) => {
    const match = /^Place (\d+): candidate ([A-J])$/.exec(label)
    expect(Number(match?.[1]), label).toBe(i + 1)
    return match?.[2] ?? '?'
  })
}

/** The scale the full-screen picture is drawn at (from its computed transform). */
async function scaleOf(image: Locator): Promise<number> {
  // Run in the page (this file is type-checked without the DOM library).
  const transform = await image.evaluate(
    (img) =>
      (
        globalThis as unknown as { getComputedStyle(e: unknown): { transform: string } }
      ).getComputedStyle(img).transform,
  )
  const match = /^matrix\(([-\d.e]+)/.exec(transform)
  return match ? Number(match[1]) : 1
}

/** Whether the picture has arrived and been decoded (the browser knows its size). */
const decoded = (image: Locator) =>
  image.evaluate((img) => {
    const picture = img as unknown as { complete: boolean; naturalWidth: number }
    return picture.complete && picture.naturalWidth > 0
  })

/** Whether the keyboard focus is inside `dialog`. */
const focusInside = (dialog: Locator) =>
  dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement))

/** Confirms the ranking in the dialog, going Back once first; the judging's answer. */
async function confirmAndJudge(page: Page, judging: Locator, expected: string[], shot: string) {
  await judging.getByRole('button', { name: 'Judge and reveal the target' }).click()
  const confirm = page.getByRole('dialog', { name: 'Judge with this ranking?' })
  const list = confirm.getByRole('list', { name: 'Your ranking, best match first' })
  expect(await rankingShown(list)).toEqual(expected)
  await screenshot(page, shot, false)
  // Back: nothing is judged, the ranking can still change.
  let judged = false
  const onRequest = (r: { url(): string }) => {
    if (r.url().endsWith('/judge')) judged = true
  }
  page.on('request', onRequest)
  await confirm.getByRole('button', { name: 'Back' }).click()
  await confirm.waitFor({ state: 'hidden' })
  page.off('request', onRequest)
  expect(judged).toBe(false)
  await page.getByRole('region', { name: 'Reveal' }).waitFor({ state: 'detached' })

  await judging.getByRole('button', { name: 'Judge and reveal the target' }).click()
  const [request, answer] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/judge')),
    page.waitForResponse((r) => r.url().endsWith('/judge')),
    confirm.getByRole('button', { name: 'Judge', exact: true }).click(),
  ])
  expect(answer.status()).toBe(200)
  const sent = (request.postDataJSON() as { ranking: string[] }).ranking
  const reveal = (await answer.json()) as { targetId: string; rank: number }
  return { sent, reveal }
}

/** One finger on the touch screen, through the DevTools protocol (pointer events of a touch). */
async function touchDrag(
  cdp: CDPSession,
  from: { x: number; y: number },
  to: { x: number; y: number },
  steps = 10,
  stepMs = 16,
) {
  await cdp.send('Input.dispatchTouchEvent', {
    type: 'touchStart',
    touchPoints: [{ x: from.x, y: from.y, id: 1 }],
  })
  for (let i = 1; i <= steps; i++) {
    await new Promise((resolve) => setTimeout(resolve, stepMs))
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [
        {
          x: from.x + ((to.x - from.x) * i) / steps,
          y: from.y + ((to.y - from.y) * i) / steps,
          id: 1,
        },
      ],
    })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

/** Two fingers spread apart from `gap` to `spread` pixels about `centre`. */
async function pinch(
  cdp: CDPSession,
  centre: { x: number; y: number },
  gap: number,
  spread: number,
) {
  const points = (d: number) => [
    { x: centre.x - d / 2, y: centre.y, id: 1 },
    { x: centre.x + d / 2, y: centre.y, id: 2 },
  ]
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(gap) })
  for (let i = 1; i <= 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 16))
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: points(gap + ((spread - gap) * i) / 10),
    })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

async function centreOf(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not drawn')
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

describe('judging made for pictures', () => {
  it('on a desktop: scrolls to the candidates, shows them full screen with arrow keys, ranks by number, drag and keyboard, and judges after a confirmation', async () => {
    const context = await browser.newContext(DESKTOP)
    const page = await context.newPage()
    const problems = watchProblems(page)
    await startWrittenSession(page)
    const candidates = await lock(page, { descriptionOnly: false })
    expect(candidates).toHaveLength(5)
    const judging = await broughtIntoView(page)
    const list = judging.getByRole('list', { name: 'Your ranking, best match first' })
    expect(await rankingShown(list)).toEqual(LETTERS)
    for (const letter of LETTERS)
      expect(await decoded(judging.getByRole('img', { name: `Candidate ${letter}` }))).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'desktop-judging-view', false)
    await screenshot(page, 'desktop-judging')

    // Full screen: a labelled dialog holding the focus; the arrow keys go through the set.
    const opener = judging.getByRole('button', { name: 'Open candidate A full screen' })
    await opener.click()
    const viewer = page.getByRole('dialog', { name: /^Candidate A/ })
    await viewer.waitFor()
    expect(await focusInside(viewer)).toBe(true)
    await viewer.getByText('1 of 5').waitFor()
    await viewer.getByText(/← and → for the next or previous candidate/).waitFor()
    await page.keyboard.press('ArrowRight')
    await page.getByRole('dialog', { name: /^Candidate B/ }).waitFor()
    await page.keyboard.press('ArrowRight')
    await page.getByRole('dialog', { name: /^Candidate C/ }).waitFor()
    await page.keyboard.press('ArrowLeft')
    const atB = page.getByRole('dialog', { name: /^Candidate B/ })
    await atB.waitFor()
    const picture = atB.getByRole('img', { name: 'Candidate B' })
    expect(await decoded(picture)).toBe(true)
    // + zooms in, the button zooms out again.
    await page.keyboard.press('+')
    await expect.poll(() => scaleOf(picture)).toBeGreaterThan(1.4)
    await atB.getByRole('button', { name: 'Zoom out' }).click()
    await expect.poll(() => scaleOf(picture)).toBe(1)
    // Ranked by number without leaving the full-screen view.
    await atB.getByRole('combobox', { name: 'Place of candidate B' }).selectOption('1')
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'desktop-viewer', false)
    // The first and last have nowhere further to go; Escape closes, the focus goes back.
    await page.keyboard.press('ArrowLeft')
    await page.getByRole('dialog', { name: /^Candidate A/ }).waitFor()
    await page.keyboard.press('ArrowLeft')
    await page.getByRole('dialog', { name: /^Candidate A/ }).waitFor()
    await page.keyboard.press('Escape')
    await viewer.waitFor({ state: 'hidden' })
    await expect.poll(() => opener.evaluate((b) => b === b.ownerDocument.activeElement)).toBe(true)
    expect(await rankingShown(list)).toEqual(['B', 'A', 'C', 'D', 'E'])

    // By number in the list: E to place 2.
    await judging.getByRole('combobox', { name: 'Place of candidate E' }).selectOption('2')
    expect(await rankingShown(list)).toEqual(['B', 'E', 'A', 'C', 'D'])

    // By drag: D's card from place 5 onto A's, place 3 (the cards stand in a grid here).
    const handle = judging.getByRole('button', { name: 'Move candidate D' })
    await handle.evaluate((h) => h.scrollIntoView({ block: 'end' }))
    const from = await centreOf(handle)
    const over = await centreOf(judging.getByRole('button', { name: 'Move candidate A' }))
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(
        from.x + ((over.x - from.x) * i) / 12,
        from.y + ((over.y - from.y) * i) / 12,
        { steps: 2 },
      )
    await screenshot(page, 'desktop-dragging', false)
    await page.mouse.up()
    expect(await rankingShown(list)).toEqual(['B', 'E', 'D', 'A', 'C'])
    await judging
      .getByRole('status')
      .filter({ hasText: 'Candidate D is now in place 3 of 5.' })
      .waitFor()

    // By keyboard: C's handle, arrow up twice; the focus stays on it.
    const handleC = judging.getByRole('button', { name: 'Move candidate C' })
    await handleC.focus()
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    expect(await rankingShown(list)).toEqual(['B', 'E', 'C', 'D', 'A'])
    expect(await handleC.evaluate((b) => b === b.ownerDocument.activeElement)).toBe(true)
    await judging
      .getByRole('status')
      .filter({ hasText: 'Candidate C is now in place 3 of 5.' })
      .waitFor()

    const ranking = ['B', 'E', 'C', 'D', 'A']
    const { sent, reveal } = await confirmAndJudge(page, judging, ranking, 'desktop-confirm')
    expect(sent).toEqual(ranking.map((letter) => candidates[LETTERS.indexOf(letter)]?.id))
    const revealed = page.getByRole('region', { name: 'Reveal' })
    await revealed
      .getByText(new RegExp(`^You ranked the target ${sent.indexOf(reveal.targetId) + 1} of 5`))
      .waitFor()
    expect(reveal.rank).toBe(sent.indexOf(reveal.targetId) + 1)
    expect(await judging.count()).toBe(0)
    await screenshot(page, 'desktop-judged')
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('on a 390-pixel phone: swipes through the candidates full screen, pinches to zoom, ranks by number and by dragging with a finger, and judges after a confirmation', async () => {
    const context: BrowserContext = await browser.newContext(PHONE)
    const page = await context.newPage()
    const problems = watchProblems(page)
    const cdp = await context.newCDPSession(page)
    await startWrittenSession(page)
    const candidates = await lock(page, { descriptionOnly: false })
    const judging = await broughtIntoView(page)
    const list = judging.getByRole('list', { name: 'Your ranking, best match first' })
    await screenshot(page, 'phone-judging-view', false)
    await screenshot(page, 'phone-judging')

    await judging.getByRole('button', { name: 'Open candidate A full screen' }).tap()
    const viewer = page.getByRole('dialog', { name: /^Candidate / })
    await page.getByRole('dialog', { name: /^Candidate A/ }).waitFor()
    expect(await focusInside(viewer)).toBe(true)
    await viewer.getByText(/^Swipe for the next or previous candidate/).waitFor()
    const stage = viewer.getByRole('img', { name: /^Candidate / }).locator('..')
    const box = await stage.boundingBox()
    if (!box) throw new Error('no stage')
    const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    const swipe = (dx: number) =>
      touchDrag(cdp, { x: middle.x - dx / 2, y: middle.y }, { x: middle.x + dx / 2, y: middle.y })
    // Swiped left: the next; right: the previous; a swipe right at the first stays there.
    await swipe(-220)
    await page.getByRole('dialog', { name: /^Candidate B/ }).waitFor()
    await swipe(220)
    await page.getByRole('dialog', { name: /^Candidate A/ }).waitFor()
    await swipe(220)
    await page.waitForTimeout(300)
    await page.getByRole('dialog', { name: /^Candidate A/ }).waitFor()
    await swipe(-220)
    await swipe(-220)
    const atC = page.getByRole('dialog', { name: /^Candidate C/ })
    await atC.waitFor()
    const picture = atC.getByRole('img', { name: 'Candidate C' })
    expect(await decoded(picture)).toBe(true)

    // Two fingers spread: zoomed; a swipe of a zoomed picture pans it instead of leaving it.
    await pinch(cdp, middle, 80, 240)
    await expect.poll(() => scaleOf(picture)).toBeGreaterThan(2)
    await screenshot(page, 'phone-viewer-zoomed', false)
    await swipe(-150)
    await page.waitForTimeout(300)
    expect(await atC.isVisible()).toBe(true)
    // A double tap zooms back out to the whole picture.
    for (let i = 0; i < 2; i++) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchStart',
        touchPoints: [{ x: middle.x, y: middle.y, id: 1 }],
      })
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
      await page.waitForTimeout(80)
    }
    await expect.poll(() => scaleOf(picture)).toBe(1)

    // Ranked by number in the full-screen view, closed by its visible button.
    await atC.getByRole('combobox', { name: 'Place of candidate C' }).selectOption('1')
    await screenshot(page, 'phone-viewer', false)
    expect(await seriousViolations(page)).toEqual([])
    await atC.getByRole('button', { name: 'Close the full-screen view' }).tap()
    await viewer.waitFor({ state: 'hidden' })
    expect(await rankingShown(list)).toEqual(['C', 'A', 'B', 'D', 'E'])

    // A finger drags E's handle up over D and B: E lands in place 3.
    const handle = judging.getByRole('button', { name: 'Move candidate E' })
    await handle.evaluate((h) => h.scrollIntoView({ block: 'center' }))
    const from = await centreOf(handle)
    const over = await centreOf(judging.getByRole('button', { name: 'Move candidate B' }))
    await touchDrag(cdp, from, { x: from.x, y: over.y - 20 }, 16)
    expect(await rankingShown(list)).toEqual(['C', 'A', 'E', 'B', 'D'])
    // And by number in the list: D to place 2.
    await judging.getByRole('combobox', { name: 'Place of candidate D' }).selectOption('2')
    const ranking = ['C', 'D', 'A', 'E', 'B']
    expect(await rankingShown(list)).toEqual(ranking)

    const { sent, reveal } = await confirmAndJudge(page, judging, ranking, 'phone-confirm')
    expect(sent).toEqual(ranking.map((letter) => candidates[LETTERS.indexOf(letter)]?.id))
    await page
      .getByRole('region', { name: 'Reveal' })
      .getByText(new RegExp(`^You ranked the target ${sent.indexOf(reveal.targetId) + 1} of 5`))
      .waitFor()
    const overflow = (await page.evaluate(
      'document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth',
    )) as number
    expect(overflow).toBeLessThanOrEqual(0)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('on a phone, judges by description only (chosen on the start page): tags, no candidate picture fetched before the reveal, which says it shows the target', async () => {
    const context = await browser.newContext(PHONE)
    const page = await context.newPage()
    const problems = watchProblems(page)
    const pictures: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/practice/images/')) pictures.push(new URL(r.url()).pathname)
    })
    await page.goto(`${base}/practice`)
    await signIn(page, base, newPhone())
    await dismissSignedInToast(page)
    const choice = page.getByRole('checkbox', { name: /Judge by text instead of pictures/ })
    await choice.check()
    await page.getByText(/After judging, the reveal shows the target’s picture/).waitFor()
    await page.getByRole('button', { name: 'Start a session' }).click()
    await page.waitForURL(/\/practice\/session\//)
    await page.getByRole('textbox', { name: 'Summary' }).fill('a tall structure near water')
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor({ timeout: 15_000 })
    // The lock's dialog shows the choice, already on.
    const candidates = await lock(page, { shown: true, shot: 'phone-lock-description-only' })
    const judging = await broughtIntoView(page)
    expect(
      await judging.getByRole('switch', { name: 'Description only (no pictures)' }).isChecked(),
    ).toBe(true)
    await judging
      .getByText(
        'The candidates are shown as their tags, without pictures. After judging, the reveal shows the target’s picture.',
      )
      .waitFor()
    expect(await judging.getByRole('img').count()).toBe(0)
    // Tags read as the vocabulary's words in the interface language, not as concept ids.
    const ids = [...new Set(candidates.flatMap((c) => c.tags))]
    const concepts = (await (
      await fetch(`${base}/api/practice/concepts?ids=${ids.join(',')}&language=en`)
    ).json()) as { conceptId: string; word: string }[]
    const wordOf = new Map(concepts.map((c) => [c.conceptId, c.word]))
    expect(ids.filter((id) => wordOf.get(id) !== id).length).toBeGreaterThan(0)
    for (const [i, candidate] of candidates.entries()) {
      const tags = judging.getByRole('list', { name: `Tags of candidate ${LETTERS[i]}` })
      await expect
        .poll(() => tags.getByRole('listitem').allInnerTexts())
        .toEqual(candidate.tags.map((id) => wordOf.get(id) ?? id))
    }
    expect(await judging.getByRole('button', { name: /full screen/ }).count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'phone-description-only-view', false)
    await screenshot(page, 'phone-description-only')

    const list = judging.getByRole('list', { name: 'Your ranking, best match first' })
    await judging.getByRole('combobox', { name: 'Place of candidate D' }).selectOption('1')
    await judging.getByRole('combobox', { name: 'Place of candidate A' }).selectOption('5')
    const ranking = ['D', 'B', 'C', 'E', 'A']
    expect(await rankingShown(list)).toEqual(ranking)
    await judging.getByRole('button', { name: 'Judge and reveal the target' }).click()
    const confirm = page.getByRole('dialog', { name: 'Judge with this ranking?' })
    expect(await confirm.getByRole('img').count()).toBe(0)
    await confirm.getByRole('list', { name: 'Tags of candidate D' }).waitFor()
    await screenshot(page, 'phone-description-only-confirm', false)
    await confirm.getByRole('button', { name: 'Back' }).click()
    expect(pictures).toEqual([])

    const { sent, reveal } = await confirmAndJudge(
      page,
      judging,
      ranking,
      'phone-description-only-judge',
    )
    expect(sent).toEqual(ranking.map((letter) => candidates[LETTERS.indexOf(letter)]?.id))
    const revealed = page.getByRole('region', { name: 'Reveal' })
    const target = revealed.getByRole('img', { name: /^The target: / })
    await target.waitFor()
    expect(await decoded(target)).toBe(true)
    await revealed.getByText(new RegExp(`^You ranked the target ${reveal.rank} of 5`)).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)

  it('on a desktop, switches description only on at the lock and off and on again after it, and keeps the choice for the next session', async () => {
    const context = await browser.newContext(DESKTOP)
    const page = await context.newPage()
    const problems = watchProblems(page)
    await startWrittenSession(page)
    await lock(page, {
      shown: false,
      descriptionOnly: true,
      shot: 'desktop-lock-description-only',
    })
    const judging = await broughtIntoView(page)
    const mode = judging.getByRole('switch', { name: 'Description only (no pictures)' })
    expect(await mode.isChecked()).toBe(true)
    expect(await judging.getByRole('img').count()).toBe(0)
    await judging.getByRole('list', { name: 'Tags of candidate A' }).waitFor()
    await screenshot(page, 'desktop-description-only-view', false)

    // A ranking made by tags stays when the pictures are shown, and back.
    await judging.getByRole('combobox', { name: 'Place of candidate C' }).selectOption('1')
    await mode.click()
    expect(await mode.isChecked()).toBe(false)
    for (const letter of LETTERS)
      await judging.getByRole('img', { name: `Candidate ${letter}` }).waitFor()
    const list = judging.getByRole('list', { name: 'Your ranking, best match first' })
    expect(await rankingShown(list)).toEqual(['C', 'A', 'B', 'D', 'E'])
    await mode.click()
    expect(await judging.getByRole('img').count()).toBe(0)

    const { reveal } = await confirmAndJudge(
      page,
      judging,
      ['C', 'A', 'B', 'D', 'E'],
      'desktop-description-only-confirm',
    )
    await page
      .getByRole('region', { name: 'Reveal' })
      .getByText(new RegExp(`^You ranked the target ${reveal.rank} of 5`))
      .waitFor()
    // The start page shows the choice kept.
    await page.goto(`${base}/practice`)
    expect(
      await page.getByRole('checkbox', { name: /Judge by text instead of pictures/ }).isChecked(),
    ).toBe(true)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  }, 120_000)
})
