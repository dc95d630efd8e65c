// Signing in through the header's dialog with a phone number and the dev SMS outbox's code.
import { expect } from 'vitest'
import type { APIRequestContext, Page } from 'playwright-core'

/** The administrator of the browser runs (`ADMIN_PHONES` in global-setup.ts). */
export const adminPhone = '+15550000001'

/** A number no other test uses, so codes, attempts and limits are this test's own. */
export function newPhone(): string {
  return `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
}

export async function codeSentTo(base: string, phone: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`)
  expect(response.status).toBe(200)
  const entries = (await response.json()) as { phone: string; code: string }[]
  // The outbox lists codes in the order sent; only the newest code of a number still works.
  const newest = entries.findLast((entry) => entry.phone === phone)
  if (!newest) throw new Error(`no code was sent to ${phone}`)
  return newest.code
}

/** Finishes the phone sign-in in the open 'Unlock Premium Features' dialog. */
export async function signInInDialog(page: Page, base: string, phone = newPhone()): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Unlock Premium Features' })
  await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
  await dialog.getByLabel('Phone Number').fill(phone)
  await dialog.getByLabel('Phone Number').press('Enter')
  await page.getByText('Verification code has been sent to your phone').waitFor()
  await dialog.getByLabel('Verification Code').fill(await codeSentTo(base, phone))
  await dialog.getByRole('button', { name: 'Verify Code' }).click()
  await dialog.waitFor({ state: 'hidden' })
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).waitFor()
}

/** Signs in from the header's button; `phone` defaults to a new plain user. */
export async function signIn(page: Page, base: string, phone = newPhone()): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click()
  await signInInDialog(page, base, phone)
}

/**
 * Signs a browser context in by phone through the API (the context keeps the refresh cookie,
 * so its pages start signed in). Waits out the resend cooldown if another test just asked for
 * a code for the same number.
 */
export async function signInByApi(
  request: APIRequestContext,
  base: string,
  phone: string,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const start = await request.post(`${base}/api/auth/phone/start`, { data: { phone } })
    if (start.ok()) break
    const retry = ((await start.json()) as { error: { details?: { retryAfterSeconds?: number } } })
      .error.details?.retryAfterSeconds
    if (start.status() !== 429 || attempt > 2) throw new Error(`code not sent: ${start.status()}`)
    await new Promise((resolve) => setTimeout(resolve, ((retry ?? 30) + 1) * 1000))
  }
  const outbox = await request.get(
    `${base}/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`,
  )
  const entries = (await outbox.json()) as { phone: string; code: string }[]
  const code = entries.findLast((e) => e.phone === phone)?.code
  if (!code) throw new Error(`no code was sent to ${phone}`)
  const verified = await request.post(`${base}/api/auth/phone/verify`, { data: { phone, code } })
  expect(verified.status()).toBe(200)
  return ((await verified.json()) as { accessToken: string }).accessToken
}
