// Spaced repetition as a user meets it: a review begun in one browser continues in another
// (the schedule lives on the server), and answers given with the network cut are kept and
// synced once it is back, each counted once.
import { describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'
import { newPhone, signInByOutbox } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

type Stats = { cards: number; answersToday: number; learning: number }

async function signedInContext(phone: string): Promise<{ context: BrowserContext; token: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const token = await signInByOutbox(context.request, base, phone)
  return { context, token }
}

async function statsOf(token: string): Promise<Stats> {
  const res = await fetch(`${base}/api/reviews/stats?language=en`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as Stats
}

/** Opens the trainer with Textures chosen and starts a review. */
async function openReview(page: Page) {
  await page.goto(base + '/descriptors')
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).waitFor()
  await page.getByRole('button', { name: /Stage 2-3/ }).click()
  await page.getByRole('checkbox', { name: 'Select Textures' }).check()
  await page.getByRole('button', { name: /^Review/ }).click()
  const dialog = page.getByRole('dialog', { name: /^Review/ })
  await dialog.getByTestId('review-word').waitFor()
  return dialog
}

async function answerShown(page: Page, key: '1' | '2' | '3' | '4'): Promise<string> {
  const dialog = page.getByRole('dialog', { name: /^Review/ })
  const word = (await dialog.getByTestId('review-word').innerText()).trim()
  await page.keyboard.press('Space')
  await dialog.getByTestId('review-answer').waitFor()
  await dialog.getByRole('group', { name: 'How well did you know it?' }).waitFor()
  await page.keyboard.press(key)
  await expect
    .poll(async () => (await dialog.getByTestId('review-word').innerText()).trim())
    .not.toBe(word)
  return word
}

describe('reviews', () => {
  it('continue on a second device where the first left off', async () => {
    const phone = newPhone()
    const laptop = await signedInContext(phone)
    const page = await laptop.context.newPage()
    const problems = watchProblems(page)
    const dialog = await openReview(page)
    // The answer shows the category, keys 1-4 rate it, each button says when it comes back.
    await page.keyboard.press('Space')
    await dialog.getByText('Perception · Textures').waitFor()
    await expect
      .poll(() => dialog.getByRole('button', { name: /^Good/ }).innerText())
      .toMatch(/Good\s+\d+m/)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: /^Review/ }).click()
    const again = page.getByRole('dialog', { name: /^Review/ })
    await again.getByTestId('review-word').waitFor()
    const answered: string[] = []
    for (let i = 0; i < 3; i++) answered.push(await answerShown(page, '3'))
    await expect.poll(async () => (await statsOf(laptop.token)).answersToday).toBe(3)
    await page.keyboard.press('Escape')
    await again.waitFor({ state: 'hidden' })
    // The figures on the button follow: nothing is due yet (Good on a new word: 10 minutes).
    await expect
      .poll(() => page.getByRole('button', { name: /^Review/ }).innerText())
      .toBe('Review')
    expect(problems, problems.join('\n')).toEqual([])

    // The phone: the three words answered on the laptop are not due; the next new one is.
    const phoneContext = await signedInContext(phone)
    const phonePage = await phoneContext.context.newPage()
    const phoneDialog = await openReview(phonePage)
    const first = (await phoneDialog.getByTestId('review-word').innerText()).trim()
    expect(answered).not.toContain(first)
    await answerShown(phonePage, '4')
    await expect.poll(async () => (await statsOf(laptop.token)).cards).toBe(4)
    await laptop.context.close()
    await phoneContext.context.close()
  })

  it('keep answers given offline and sync them once, when the network is back', async () => {
    const { context, token } = await signedInContext(newPhone())
    const page = await context.newPage()
    const dialog = await openReview(page)
    await context.setOffline(true)
    const offline = [await answerShown(page, '3'), await answerShown(page, '1')]
    expect(offline).toHaveLength(2)
    await dialog.getByText('You are offline.', { exact: false }).waitFor()
    await dialog.getByText(/2 answers not yet synced/).waitFor()
    expect((await statsOf(token)).answersToday).toBe(0)
    // Still kept after the page is closed and opened again.
    const kept = await page.evaluate(() =>
      Object.keys(localStorage).filter((k) => k.startsWith('crv.reviews.outbox.')),
    )
    expect(kept).toHaveLength(1)

    await context.setOffline(false)
    await dialog.getByText(/not yet synced/).waitFor({ state: 'hidden' })
    await expect.poll(async () => (await statsOf(token)).answersToday).toBe(2)
    // The outbox is empty, and opening the page again sends nothing twice.
    expect(
      await page.evaluate(() =>
        Object.keys(localStorage).filter((k) => k.startsWith('crv.reviews.outbox.')),
      ),
    ).toEqual([])
    await page.reload()
    await page.getByRole('button', { name: /^Review/ }).waitFor()
    const stats = await statsOf(token)
    expect(stats).toMatchObject({ answersToday: 2, cards: 2, learning: 2 })
    await context.close()
  })
})
