// Signing in through the header's dialog with a phone number and the dev SMS outbox's code.
import { expect } from 'vitest'
import type { APIRequestContext, Page } from 'playwright-core'
import { codeSentTo, newPhone, untilCodeSent } from '../kit/sign-in.ts'

export { codeSentTo, newPhone, outboxFor } from '../kit/sign-in.ts'

/**
 * The test files that sign an administrator in, each with a number of its own: one number for
 * all made a file wait out the 30 s resend cooldown when the file before it had just asked a
 * code for it (through the API), and a sign-in through the page, which does not wait, could meet
 * the refusal instead.
 */
const ADMIN_FILES = [
  'admin',
  'keyboard',
  'phone',
  'practice-contributions',
  'practice-familiarity',
  'practice',
  'routes',
  'sign-in',
  'tachistoscope-screen',
  'tachistoscope',
  'target-import',
]

/** Every administrator number of the browser runs (`ADMIN_PHONES` in global-setup.ts). */
export const adminPhones = ADMIN_FILES.map((_, i) => `+1555000${String(i + 1).padStart(4, '0')}`)

/** The administrator number of the test file at `fileUrl` (its `import.meta.url`). */
export function adminPhoneOf(fileUrl: string): string {
  const name = /([^/]+)\.test\.ts$/.exec(fileUrl)?.[1] ?? ''
  const phone = adminPhones[ADMIN_FILES.indexOf(name)]
  if (!phone) throw new Error(`${name}.test.ts signs an administrator in: add it to ADMIN_FILES`)
  return phone
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
 * test/kit/sign-in.ts has the same over plain fetch, for callers without a browser.
 */
export async function signInByOutbox(
  request: APIRequestContext,
  base: string,
  phone: string,
): Promise<string> {
  await untilCodeSent(async () => {
    const start = await request.post(`${base}/api/auth/phone/start`, { data: { phone } })
    return { status: start.status(), json: () => start.json() as Promise<unknown> }
  })
  const code = await codeSentTo(base, phone)
  const verified = await request.post(`${base}/api/auth/phone/verify`, { data: { phone, code } })
  expect(verified.status()).toBe(200)
  return ((await verified.json()) as { accessToken: string }).accessToken
}
