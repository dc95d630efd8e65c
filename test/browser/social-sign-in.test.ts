// Social sign-in in a real browser against a real OpenID provider (oidc-provider, started by
// the global setup in place of Google): in the popup, and by redirect when popups are blocked.
import { describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

/** The provider's development login and consent pages: any login, then Continue. */
async function loginAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any')
  await page.locator('button[type="submit"]').click()
  await page.locator('button[type="submit"]').waitFor()
  await page.locator('button[type="submit"]').click()
}

async function openDialog(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click()
  const dialog = page.getByRole('dialog', { name: 'Unlock Premium Features' })
  await dialog.waitFor()
  return dialog
}

describe('social sign-in', () => {
  it('signs in through the provider in a popup that reports back to the page', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/sidereal-time')
    const dialog = await openDialog(page)
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      dialog.getByRole('button', { name: 'Continue with Test Provider' }).click(),
    ])
    // Listened for before the login: the popup may close before a later listener is attached
    // (it did once, on a busy machine: the wait then saw no close at all).
    const closed = popup.waitForEvent('close', { timeout: 30_000 })
    await loginAtProvider(popup, 'ada')
    await closed
    await page.getByRole('banner').getByText('Ada').waitFor()
    expect(page.url()).toBe(base + '/sidereal-time')
    // The session is a real one: it survives a reload.
    await page.reload()
    await page.getByRole('banner').getByText('Ada').waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('falls back to a full redirect when the popup is blocked, and comes back to the page', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    // A blocked popup: window.open returns null.
    await page.addInitScript('window.open = () => null')
    await page.goto(base + '/export-data')
    const dialog = await openDialog(page)
    await dialog.getByRole('button', { name: 'Continue with Test Provider' }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/(interaction|auth)/)
    await loginAtProvider(page, 'grace')
    await page.waitForURL(base + '/export-data')
    await page.getByRole('banner').getByText('Test').waitFor()
    await context.close()
  })

  it('reports a cancelled sign-in as "Sign-in error: oidc_denied"', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.addInitScript('window.open = () => null')
    await page.goto(base + '/')
    const dialog = await openDialog(page)
    await dialog.getByRole('button', { name: 'Continue with Test Provider' }).click()
    await page.waitForURL(/127\.0\.0\.1:\d+\/(interaction|auth)/)
    await page.getByRole('link', { name: /Cancel/i }).click()
    await page.getByText('Sign-in error: oidc_denied').waitFor()
    expect(page.url()).toBe(base + '/')
    await context.close()
  })
})
