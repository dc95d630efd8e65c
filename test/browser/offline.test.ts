// Installable and offline (issue [14]): Chromium's own installability checks pass; with the
// network cut after one online visit, the app opens from its service worker, the ideogram
// trainer plays its clips, the descriptor trainer draws words, a review goes on, and what was
// answered offline reaches the server once the network is back. A word added on the server
// while offline must not show: proof that what the app showed came from its own copies.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, inject } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  enableOnsetMeasurement,
  scheduledCount,
  selectGestalts,
  startPlaying,
  stopPlaying,
} from '../../bench/scenarios/ideogram.ts'
import { launchWithProfile, withBrowser } from './browser.ts'
import { newPhone, signInByOutbox } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

const answersToday = async (token: string) =>
  ((await (await api(token, '/api/reviews/stats?language=en')).json()) as { answersToday: number })
    .answersToday

const api = (token: string, path: string, init: RequestInit = {}) =>
  fetch(base + path, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  })

async function controlled(page: Page) {
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { navigator: { serviceWorker?: { controller: unknown } } })
        .navigator.serviceWorker?.controller != null,
    undefined,
    { timeout: 30_000 },
  )
}

async function signedIn(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).waitFor()
}

describe('the installed app, offline', () => {
  it('passes Chromium’s installability checks', async () => {
    // A profile on disk: an incognito context may never install anything.
    const dir = await mkdtemp(join(tmpdir(), 'crv-profile-'))
    const context = await launchWithProfile(dir)
    try {
      const page = await context.newPage()
      await page.goto(base + '/')
      await controlled(page)
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      expect(installabilityErrors).toEqual([])
      const manifest = await (await fetch(base + '/manifest.webmanifest')).json()
      expect(manifest).toMatchObject({
        name: 'CRV Training',
        display: 'standalone',
        start_url: '/',
      })
    } finally {
      await context.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('trains and reviews with no network, and syncs the answers once it is back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, base, newPhone())
    const page = await context.newPage()
    await enableOnsetMeasurement(page)

    // Online once: the ideogram page (its clips are kept), the trainer and a review.
    await page.goto(base + '/')
    await signedIn(page)
    await controlled(page)
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const { caches } = globalThis as unknown as {
            caches: { open(name: string): Promise<{ keys(): Promise<unknown[]> }> }
          }
          return (await (await caches.open('crv-audio')).keys()).length
        }),
      )
      .toBeGreaterThanOrEqual(7)
    await page.goto(base + '/descriptors')
    await signedIn(page)
    await page.getByRole('button', { name: /Stage 2-3/ }).click()
    await page.getByRole('checkbox', { name: 'Select Textures' }).check()
    await page.getByRole('button', { name: /^Review/ }).click()
    const review = page.getByRole('dialog', { name: /^Review/ })
    await review.getByTestId('review-word').waitFor()
    const firstCard = (await review.getByTestId('review-word').innerText()).trim()
    await page.keyboard.press('Escape')

    // Offline. A word added meanwhile on the server must not appear: the app shows its copy.
    await context.setOffline(true)
    const gestalts = (await (await fetch(`${base}/api/gestalts?language=en`)).json()) as {
      id: number
      name: string
    }[]
    const land = gestalts.find((g) => g.name === 'Land')?.id
    const unseen = `Offlineword${Date.now() % 100000}`
    expect(
      (
        await api(token, '/api/descriptors', {
          method: 'POST',
          body: JSON.stringify({ word: unseen, language: 'en', gestaltId: land }),
        })
      ).status,
    ).toBe(201)

    await page.reload()
    await signedIn(page)
    await page.getByRole('button', { name: 'View All Land' }).click()
    const all = page.getByRole('dialog', { name: 'All Descriptors - Land' })
    await all
      .getByRole('button', { name: /^Hide / })
      .first()
      .waitFor()
    expect(await all.getByText(unseen).count()).toBe(0)
    await all.getByRole('button', { name: 'Close' }).first().click()

    // The trainer draws from the words on the device.
    await page.getByRole('checkbox', { name: 'Select Land' }).check()
    await page.getByRole('button', { name: 'Start Training' }).click()
    const training = page.getByRole('dialog', { name: /Descriptor Training/ })
    await training.getByTestId('training-word').waitFor()
    await page.keyboard.press('Escape')

    // The review goes on with the cards kept; the answer waits for the network.
    await page.getByRole('button', { name: /Stage 2-3/ }).click()
    await page.getByRole('checkbox', { name: 'Select Textures' }).check()
    await page.getByRole('button', { name: /^Review/ }).click()
    await review.getByTestId('review-word').waitFor()
    expect((await review.getByTestId('review-word').innerText()).trim()).toBe(firstCard)
    await page.keyboard.press('Space')
    await review.getByTestId('review-answer').waitFor()
    await page.keyboard.press('3')
    await review.getByText(/1 answer not yet synced/).waitFor()
    await review.getByText('You are offline.', { exact: false }).waitFor()
    await page.keyboard.press('Escape')

    // The ideogram trainer plays its clips.
    await page.goto(base + '/')
    await selectGestalts(page, ['land', 'water'])
    await startPlaying(page)
    await expect.poll(() => scheduledCount(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(2)
    await stopPlaying(page)
    expect(await answersToday(token)).toBe(0)

    // Back online: the answer is sent, once.
    await context.setOffline(false)
    await expect.poll(() => answersToday(token)).toBe(1)
    await page.goto(base + '/descriptors')
    await signedIn(page)
    await page.getByRole('button', { name: 'View All Land' }).click()
    await page.getByRole('dialog', { name: 'All Descriptors - Land' }).getByText(unseen).waitFor()
    await context.close()
  })
})
