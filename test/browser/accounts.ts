// Signing in through the header's dialog with a phone number and the dev SMS outbox's code.
import { expect } from 'vitest'
import type { APIRequestContext, Page } from 'playwright-core'

/** The administrator of the browser runs (`ADMIN_PHONES` in global-setup.ts). */
export const adminPhone = '+15550000001'

/** A number no other test uses, so codes, attempts and limits are this test's own. */
export function newPhone(): string {
  return `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
}

/** What the dev SMS outbox holds for `phone`, in the order the codes were sent. */
export async function outboxFor(
  base: string,
  phone: string,
): Promise<{ phone: string; code: string }[]> {
  const response = await fetch(`${base}/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`)
  expect(response.status).toBe(200)
  const entries = (await response.json()) as { phone: string; code: string }[]
  return entries.filter((entry) => entry.phone === phone)
}

export async function codeSentTo(base: string, phone: string): Promise<string> {
  // Only the newest code of a number still works.
  const newest = (await outboxFor(base, phone)).at(-1)
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
 * Signs a browser context in by phone through the API with the dev SMS outbox's code (the
 * context keeps the refresh cookie, so its pages start signed in). Waits out the resend cooldown
 * if another test just asked for a code for the same number. Returns the access token.
 */
export async function signInByOutbox(
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
  const code = await codeSentTo(base, phone)
  const verified = await request.post(`${base}/api/auth/phone/verify`, { data: { phone, code } })
  expect(verified.status()).toBe(200)
  return ((await verified.json()) as { accessToken: string }).accessToken
}
