// A shared browser (issue [23], item 6): once a user signs out, the service worker's caches hold
// nothing of theirs: no answer kept under their id, none holding a word of theirs. The next
// person at that browser could otherwise read them from the cache storage.
import { describe, expect, it, inject } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { withBrowser } from './browser.ts'
import { newPhone, signInByOutbox } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

type CacheEntry = { cache: string; url: string; body: string }

/** Every entry of every cache of the page's origin; bodies of the runtime caches only. */
function everyCacheEntry(page: Page): Promise<CacheEntry[]> {
  return page.evaluate(async () => {
    type Cache = {
      keys(): Promise<{ url: string }[]>
      match(request: { url: string }): Promise<{ text(): Promise<string> } | undefined>
    }
    const { caches } = globalThis as unknown as {
      caches: { keys(): Promise<string[]>; open(name: string): Promise<Cache> }
    }
    const entries: CacheEntry[] = []
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys()) {
        // The precache holds the app's own files, the same for everyone.
        const response = name.includes('precache') ? undefined : await cache.match(request)
        entries.push({ cache: name, url: request.url, body: (await response?.text()) ?? '' })
      }
    }
    return entries
  })
}

const idOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string })
    .sub

describe('signing out on a shared browser', () => {
  it('leaves nothing of the user in the service worker’s caches', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, base, newPhone())
    const userId = idOf(token)
    const gestalts = (await (await fetch(`${base}/api/gestalts?language=en`)).json()) as {
      id: number
      name: string
    }[]
    const word = `Privateword${Date.now() % 100000}`
    const added = await fetch(`${base}/api/descriptors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        word,
        language: 'en',
        gestaltId: gestalts.find((g) => g.name === 'Land')?.id,
      }),
    })
    expect(added.status).toBe(201)

    const page = await context.newPage()
    await page.goto(base + '/')
    const banner = page.getByRole('banner')
    await banner.getByRole('button', { name: 'Sign Out' }).waitFor()
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { navigator: { serviceWorker?: { controller: unknown } } })
          .navigator.serviceWorker?.controller != null,
      undefined,
      {
        timeout: 30_000,
      },
    )
    // The user's words, review figures and history, each kept by the service worker.
    await page.goto(base + '/descriptors')
    await banner.getByRole('button', { name: 'Sign Out' }).waitFor()
    await page.goto(base + '/progress')
    await banner.getByRole('button', { name: 'Sign Out' }).waitFor()
    await expect
      .poll(
        async () => {
          const kept = (await everyCacheEntry(page)).filter((e) => e.url.includes(userId))
          return ['descriptors/bulk', 'reviews/stats'].filter(
            (path) => !kept.some((e) => e.url.includes(path)),
          )
        },
        { timeout: 30_000 },
      )
      .toEqual([])
    expect((await everyCacheEntry(page)).some((e) => e.body.includes(word))).toBe(true)

    await banner.getByRole('button', { name: 'Sign Out' }).click()
    await banner.getByRole('button', { name: 'Sign In' }).waitFor()

    const left = await everyCacheEntry(page)
    expect(left.length).toBeGreaterThan(0)
    expect(left.filter((e) => e.url.includes(userId)).map((e) => e.url)).toEqual([])
    expect(left.filter((e) => e.body.includes(word)).map((e) => e.url)).toEqual([])
    // What everyone sees stays for a visitor's offline use.
    expect(left.some((e) => e.cache === 'crv-audio')).toBe(true)
    await context.close()
  })
})
