// Signing in through the header's dialog with a phone number and the dev SMS outbox's code.
import { expect } from 'vitest'
import type { Page } from 'playwright-core'

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
