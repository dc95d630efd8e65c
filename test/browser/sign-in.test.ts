import { describe, expect, it, inject } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'
import { adminPhoneOf, codeSentTo, newPhone, outboxFor } from './accounts.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
// The descriptor trainer is in everyone's menu (issue [11]); these are for administrators only.
const adminEntries = ['Tachistoscope', 'Admin Panel', 'Pending Descriptors']
let browser: Browser

withBrowser((launched) => (browser = launched))

type SignedInUser = { firstName: string; displayName: string; role: string }

async function openDialog(page: Page): Promise<Locator> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click()
  const dialog = page.getByRole('dialog', { name: 'Unlock Premium Features' })
  await dialog.waitFor()
  return dialog
}

/** Opens the dialog, asks for a code for `phone` (Enter submits) and waits for the code step. */
async function requestCode(page: Page, phone: string): Promise<Locator> {
  const dialog = await openDialog(page)
  await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
  const number = dialog.getByLabel('Phone Number')
  await number.fill(phone)
  await number.press('Enter')
  await page.getByText('Verification code has been sent to your phone').waitFor()
  await dialog.getByLabel('Verification Code').waitFor()
  return dialog
}

async function signInByPhone(page: Page, phone: string): Promise<SignedInUser> {
  const dialog = await requestCode(page, phone)
  const verified = page.waitForResponse((r) => r.url().endsWith('/api/auth/phone/verify'))
  await dialog.getByLabel('Verification Code').fill(await codeSentTo(base, phone))
  await dialog.getByRole('button', { name: 'Verify Code' }).click()
  const response = await verified
  expect(response.status()).toBe(200)
  const { user } = (await response.json()) as { user: SignedInUser }
  await page.getByText('Phone number verified successfully').waitFor()
  await dialog.waitFor({ state: 'hidden' })
  return user
}

async function menuEntries(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Open menu' }).click()
  const nav = page.getByRole('navigation', { name: 'Main menu' })
  await nav.getByText('Sidereal Time').waitFor()
  const entries = await nav.getByRole('link').allInnerTexts()
  await page.keyboard.press('Escape')
  await nav.waitFor({ state: 'hidden' })
  return entries.map((entry) => entry.trim())
}

describe('phone sign-in', () => {
  it('signs a new user in, keeps them signed in across a reload and signs them out', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/')
    const header = page.getByRole('banner')

    const user = await signInByPhone(page, newPhone())
    expect(user.firstName.length).toBeGreaterThan(0)
    await header.getByText(user.firstName, { exact: true }).waitFor()
    await header.getByRole('button', { name: 'Sign Out' }).waitFor()
    // Each reload may cancel the clips the page is still keeping for offline use: the browser's
    // doing, which `watchProblems` does not count.
    await page.reload()
    await header.getByText(user.firstName, { exact: true }).waitFor()
    expect(await header.getByRole('button', { name: 'Sign In' }).count()).toBe(0)

    await Promise.all([
      page.waitForEvent('load'),
      header.getByRole('button', { name: 'Sign Out' }).click(),
    ])
    await header.getByRole('button', { name: 'Sign In' }).waitFor()
    expect(await header.getByText(user.firstName, { exact: true }).count()).toBe(0)

    // The session is over on the server too, not only on this page.
    await page.reload()
    await header.getByRole('button', { name: 'Sign In' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('asks for a number and for a code before calling the server', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    const authCalls: string[] = []
    page.on('request', (r) => {
      if (/\/api\/auth\/phone\//.test(r.url())) authCalls.push(new URL(r.url()).pathname)
    })
    await page.goto(base + '/')

    const dialog = await openDialog(page)
    await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
    const number = dialog.getByLabel('Phone Number')
    expect(await number.getAttribute('type')).toBe('tel')
    expect(await number.getAttribute('placeholder')).toBe('+1234567890')
    await number.fill('   ')
    await dialog.getByRole('button', { name: 'Send Code' }).click()
    await page.getByText('Please enter a valid phone number', { exact: true }).waitFor()
    expect(authCalls).toEqual([])

    await number.fill(newPhone())
    await number.press('Enter')
    const code = dialog.getByLabel('Verification Code')
    await code.waitFor()
    expect(await code.getAttribute('maxlength')).toBe('6')
    expect(await code.getAttribute('inputmode')).toBe('numeric')
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code')
    await code.press('Enter')
    await page.getByText('Please enter the verification code', { exact: true }).waitFor()
    expect(authCalls).toEqual(['/api/auth/phone/start'])
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('refuses a wrong code with "Invalid verification code" and stays signed out', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page, [{ path: '/api/auth/phone/verify', status: 400 }])
    await page.goto(base + '/')
    const phone = newPhone()
    const dialog = await requestCode(page, phone)

    const right = Number(await codeSentTo(base, phone))
    const wrong = String((right + 1) % 1_000_000).padStart(6, '0')
    await dialog.getByLabel('Verification Code').fill(wrong)
    await dialog.getByRole('button', { name: 'Verify Code' }).click()
    await page.getByText('Invalid verification code', { exact: true }).waitFor()
    expect(await dialog.isVisible()).toBe(true)

    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})

describe('roles', () => {
  it('shows an administrator the admin menu entries and pages, without an Access Denied flash', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/')
    const user = await signInByPhone(page, adminPhone)
    expect(user.role).toBe('admin')
    expect(await menuEntries(page)).toEqual(expect.arrayContaining(adminEntries))

    // Hold the start-up refresh back: the guarded page waits for it instead of refusing.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/auth/refresh', async (route) => {
      await held
      await route.continue()
    })
    await page.goto(base + '/admin-panel')
    await page.getByRole('progressbar', { name: 'Checking your sign-in' }).waitFor()
    expect(await page.getByText('Access Denied').count()).toBe(0)
    release()
    await page.getByRole('heading', { name: 'Admin Panel' }).waitFor()
    expect(await page.getByText('Access Denied').count()).toBe(0)
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('hides the admin menu entries from a user and refuses the admin pages', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/')
    const user = await signInByPhone(page, newPhone())
    expect(user.role).toBe('user')
    const entries = await menuEntries(page)
    expect(entries).toEqual(expect.arrayContaining(['Sidereal Time', 'Descriptor Training']))
    for (const entry of adminEntries) expect(entries).not.toContain(entry)

    await page.goto(base + '/admin-panel')
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor()
    await page.getByText('You do not have administrator privileges to view this page.').waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})

describe('the sign-in dialog', () => {
  it('offers both ways in, walks back step by step and starts afresh after closing', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/')
    let dialog = await openDialog(page)
    for (const promise of [
      'Access Stage 2-3 and Stage 4-6 descriptors',
      'Create and save custom descriptors',
      'Sync your training across devices',
    ]) {
      await dialog.getByText(promise).waitFor()
    }
    await dialog.getByRole('button', { name: 'Continue with Test Provider' }).waitFor()
    await dialog.getByText('Or', { exact: true }).waitFor()

    await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
    await dialog.getByLabel('Phone Number').fill('+1 555 0100')
    await dialog.getByRole('button', { name: '← Back to options' }).click()
    await dialog.getByRole('button', { name: 'Continue with Phone' }).waitFor()

    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    dialog = await openDialog(page)
    await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
    expect(await dialog.getByLabel('Phone Number').inputValue()).toBe('')
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('keeps the code step reachable: the same number again, a closed dialog, a reload', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/')
    const phone = newPhone()
    let dialog = await requestCode(page, phone)
    // The countdown to the next code runs.
    const resend = dialog.getByRole('button', { name: /^Resend Code \(\d+s\)$/ })
    const first = Number((await resend.innerText()).match(/\d+/)?.[0])
    await expect
      .poll(async () => Number((await resend.innerText()).match(/\d+/)?.[0]))
      .toBeLessThan(first)
    expect(await resend.isDisabled()).toBe(true)

    // "Use Different Number", then the same number: back to the code, no "Too many attempts".
    await dialog.getByRole('button', { name: 'Use Different Number' }).click()
    await dialog.getByLabel('Phone Number').fill(phone)
    await dialog.getByRole('button', { name: 'Send Code' }).click()
    await page.getByText('The code we texted you a moment ago still works').waitFor()
    await dialog.getByLabel('Verification Code').waitFor()
    await resend.waitFor()
    expect(await page.getByText('Too many attempts').count()).toBe(0)

    // Closed and reloaded, the dialog offers the code step for that number.
    await page.reload()
    dialog = await openDialog(page)
    await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
    await dialog.getByRole('button', { name: `Enter the code sent to ${phone}` }).click()
    // One code was sent in all, and it signs in.
    expect(await outboxFor(base, phone)).toHaveLength(1)
    await dialog.getByLabel('Verification Code').fill(await codeSentTo(base, phone))
    await dialog.getByRole('button', { name: 'Verify Code' }).click()
    await page.getByText('Phone number verified successfully').waitFor()
    await dialog.waitFor({ state: 'hidden' })
    // Signed in, the dialog forgets the number.
    expect(await page.evaluate(() => sessionStorage.getItem('crv-sign-in-sent-code'))).toBeNull()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('reports a failed redirect sign-in and takes its code out of the address', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/sidereal-time?authError=access_denied&city=Bern')
    await page.getByText('Sign-in error: access_denied').waitFor()
    expect(page.url()).toBe(base + '/sidereal-time?city=Bern')
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})
