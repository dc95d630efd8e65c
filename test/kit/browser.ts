// Chromium as every browser test and bench drives it. No vitest here: the bench imports it too
// (test/browser/browser.ts adds the per-file `withBrowser` of the browser suites).
import { chromium } from 'playwright-core'
import type { Browser, BrowserContext } from 'playwright-core'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // The interface follows the browser's language: tests read English unless a context says otherwise.
  '--lang=en-US',
]

/** Chromium as every browser test and bench drives it (`CHROMIUM_PATH`, else Debian's). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS })
}

/**
 * A browser with a profile on disk, as a person's is: what only a non-incognito profile may do
 * (install the app) can be checked in it. Close the context, then remove `dir`.
 */
export async function launchWithProfile(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ARGS })
}
