// Stage II suggestions follow the interface language chosen in the app, not the browser's (issue
// [25] item 3): with German chosen in an English browser, "bla" in the colours suggests German
// words; with Japanese, 青 suggests the Japanese word. A word matched in another language says
// which language it is from.
import { describe, expect, it, inject } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { withBrowser } from './browser.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

/** A visitor's trial in an English browser with `language` chosen in the app. */
async function trialIn(language: string, labels: { tryOne: string; start: string }): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' })
  await context.addInitScript((chosen) => {
    localStorage.setItem('crv.uiLanguage', chosen)
  }, language)
  const page = await context.newPage()
  await page.goto(`${base}/practice`)
  await page.getByRole('button', { name: labels.tryOne }).click()
  await page.getByRole('button', { name: labels.start }).click()
  return page
}

/** The suggestions for `query`, once one of them matches `expected` (they follow the typing). */
async function suggestions(
  page: Page,
  column: string,
  query: string,
  expected: RegExp,
): Promise<string[]> {
  await page.getByRole('combobox', { name: column }).fill(query)
  const options = page.getByRole('option')
  await expect
    .poll(() => options.allInnerTexts())
    .toEqual(expect.arrayContaining([expect.stringMatching(expected)]))
  return options.allInnerTexts()
}

describe('Stage II suggestions', () => {
  it('come in the interface language chosen in the app, and say which language a match is from', async () => {
    const german = await trialIn('de', {
      tryOne: 'Eine Sitzung ausprobieren (nicht gespeichert)',
      start: 'Probedurchgang starten',
    })
    try {
      // Before the fix these were the browser's English: black, blue.
      const words = await suggestions(german, 'Farben', 'bla', /^blau/)
      expect(words.filter((w) => /^(black|blue)\b/.test(w))).toEqual([])
      // An English word typed in a German column: the German word, from English.
      await suggestions(german, 'Farben', 'blue', /^blau.*\(EN: blue\)/s)
    } finally {
      await german.context().close()
    }
    const japanese = await trialIn('ja', {
      tryOne: 'セッションを試す（保存されません）',
      start: 'お試しを開始',
    })
    try {
      await suggestions(japanese, '色', '青', /^青/)
    } finally {
      await japanese.context().close()
    }
  })
})
