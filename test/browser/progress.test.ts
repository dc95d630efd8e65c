// The progress page as a user meets it: a descriptor training session and a review recorded
// in their history, shown as a streak and minutes, and the whole history deleted on request.
import { describe, expect, it, inject } from 'vitest'
import type { Browser } from 'playwright-core'
import { selectGestalts, startPlaying, stopPlaying } from '../../bench/scenarios/ideogram.ts'
import { watchProblems, withBrowser } from './browser.ts'
import { newPhone, signInByOutbox } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

/**
 * A time zone where it is not near midnight now. The page's clock runs minutes ahead of the
 * server's, which moves a session that would end in its future back to end now: within minutes
 * after midnight that puts it on the day before, and "today" is empty (CI met it at 00:01 UTC).
 * UTC and Tokyo are nine hours apart, so one of them is always between 01:00 and 22:59.
 */
function zoneAwayFromMidnight(): string {
  for (const timeZone of ['UTC', 'Asia/Tokyo']) {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(
        new Date(),
      ),
    )
    if (hour >= 1 && hour <= 22) return timeZone
  }
  return 'UTC'
}

describe('your progress', () => {
  it('shows the training done today, and starts afresh when the history is deleted', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: zoneAwayFromMidnight(),
    })
    const token = await signInByOutbox(context.request, base, newPhone())
    const page = await context.newPage()
    const problems = watchProblems(page)
    // The page's clock, so that a session of minutes takes a moment of the test.
    await page.clock.install()
    await page.goto(base + '/descriptors')
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).waitFor()
    await page.getByRole('checkbox', { name: 'Select Land' }).check()
    // The voice assistant speaks the first word: let it finish before the page is left.
    const spoken = page.waitForResponse((r) => r.url().includes('/api/ai/speech'))
    await page.getByRole('button', { name: 'Start Training' }).click()
    const training = page.getByRole('dialog', { name: /Descriptor Training/ })
    await training.getByTestId('training-word').waitFor()
    await spoken
    await page.clock.fastForward('03:00')
    const recorded = page.waitForResponse(
      (r) => r.url().endsWith('/api/history/sessions') && r.request().method() === 'POST',
    )
    await page.keyboard.press('Escape')
    expect((await recorded).status()).toBe(201)

    // Through the menu, as a user goes there (a new page load would cut requests short).
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Your Progress' })
      .click()
    const figures = page.getByRole('region', { name: 'Your figures' })
    await figures.getByText('Current streak').waitFor()
    await expect.poll(() => figures.innerText()).toMatch(/Current streak\s+1 day/)
    // The three minutes moved on the page's clock, and the seconds the page really took: up to
    // 6 s on a loaded machine (CI read 3.1 min once, the word's speech slow to come).
    expect(await figures.innerText()).toMatch(/Today\s+3\.[01] min/)
    await page.getByRole('region', { name: 'Minutes per day' }).locator('svg').first().waitFor()

    await page.getByRole('button', { name: 'Delete training history' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete training history' })
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Training history deleted', { exact: true }).waitFor()
    await expect.poll(() => figures.innerText()).toMatch(/Current streak\s+0 days/)
    const history = await fetch(`${base}/api/history`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(((await history.json()) as { totals: { sessions: number } }).totals.sessions).toBe(0)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('records an ideogram session from Play to its pause, with its speed and gestalts', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await signInByOutbox(context.request, base, newPhone())
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.clock.install()
    await page.goto(base + '/')
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).waitFor()
    await selectGestalts(page, ['land', 'space'])
    await startPlaying(page)
    await page.clock.fastForward('02:30')
    const recorded = page.waitForRequest(
      (r) => r.url().endsWith('/api/history/sessions') && r.method() === 'POST',
    )
    await stopPlaying(page)
    const body = (await recorded).postDataJSON() as {
      activity: string
      durationMs: number
      speeds: string[]
      gestalts: string[]
    }
    expect(body.activity).toBe('ideogram')
    expect(body.durationMs).toBeGreaterThanOrEqual(150_000)
    expect(body.speeds).toHaveLength(1)
    expect([...body.gestalts].sort()).toEqual(['land', 'space'])
    expect((await (await recorded).response())?.status()).toBe(201)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('asks a visitor to sign in', async () => {
    const page = await browser.newPage()
    await page.goto(base + '/progress')
    await page.getByText('Sign in to keep your training history').waitFor()
    await page.close()
  })
})
