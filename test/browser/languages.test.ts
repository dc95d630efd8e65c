// The interface in the user's language: a German browser gets the whole app in German (the
// trainer's language following it), the choice made in Settings is kept; and Settings gives
// a user all their data and deletes their account.
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it, inject } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { untilClipsArrived, watchProblems, withBrowser } from './browser.ts'
import { newPhone, signInByOutbox } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

type Tree = { [key: string]: string | Tree }
const locales = new URL('../../frontend/src/locales/', import.meta.url)
function catalogue(language: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (tree: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === 'string') out.set(`${prefix}${key}`, value)
      else walk(value, `${prefix}${key}.`)
    }
  }
  for (const file of readdirSync(new URL(`${language}/`, locales)).filter((f) =>
    f.endsWith('.json'),
  ))
    walk(
      JSON.parse(readFileSync(new URL(`${language}/${file}`, locales), 'utf8')) as Tree,
      `${file.replace(/\.json$/, '')}:`,
    )
  return out
}
const en = catalogue('en')
const de = catalogue('de')
const german = (key: string) => {
  const value = de.get(key)
  if (!value) throw new Error(`no German for ${key}`)
  return value
}

/**
 * The English sentences of the catalogue (two words or more, no arguments) that German words
 * differently: none of them may be on a German page.
 */
const englishOnly = [...en]
  .filter(
    ([key, value]) => !value.includes('{') && /\w+\s+\w+/.test(value) && de.get(key) !== value,
  )
  .map(([, value]) => value)

async function englishLeftOn(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText()
  return englishOnly.filter((sentence) => text.includes(sentence))
}

describe('the interface in German', () => {
  it('follows a German browser end to end, and the trainer’s language follows it', async () => {
    const context = await browser.newContext({
      locale: 'de-DE',
      viewport: { width: 1280, height: 900 },
    })
    const page = await context.newPage()
    const problems = watchProblems(page, [{ path: '/api/auth/refresh', status: 401 }])
    await page.goto(base + '/')
    await page.getByRole('button', { name: german('common:header.openMenu') }).waitFor()
    expect(await page.locator('html').getAttribute('lang')).toBe('de')
    expect(await page.title()).toBe(german('common:pageMeta.home.title'))
    await page.getByRole('banner').getByRole('button', { name: 'Anmelden' }).waitFor()
    await page.getByRole('button', { name: german('common:header.openMenu') }).click()
    const menu = page.getByRole('navigation', { name: german('common:menu.main') })
    await menu.getByRole('link', { name: german('common:menu.siderealTime') }).waitFor()
    await menu.getByRole('link', { name: german('common:menu.descriptors') }).waitFor()
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'hidden' })
    expect(await englishLeftOn(page)).toEqual([])
    // The page's clips arrive before it is left (leaving cancels requests in flight).
    await untilClipsArrived(page)

    // Signed in, a review in the descriptor trainer, in German words.
    await signInByOutbox(context.request, base, newPhone())
    await page.goto(base + '/descriptors')
    await page.getByRole('banner').getByRole('button', { name: 'Abmelden' }).waitFor()
    expect(await page.title()).toBe(german('common:pageMeta.descriptorTraining.title'))
    // No training language chosen: it is the interface's.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Sprache' }).innerText())
      .toContain('Deutsch')
    const perceptions = (await (await fetch(`${base}/api/perceptions?language=de`)).json()) as {
      slug?: string
      name: string
    }[]
    const textures = perceptions.find((p) => /Textur/.test(p.name))?.name
    expect(textures, 'the German name of Textures').toBeTruthy()
    await page.getByRole('button', { name: /Stufe 2-3/ }).click()
    await page.getByRole('checkbox', { name: `${textures} auswählen` }).check()
    expect(await englishLeftOn(page)).toEqual([])
    await page.getByRole('button', { name: /^Wiederholung/ }).click()
    const dialog = page.getByRole('dialog', { name: /^Wiederholung/ })
    await dialog.getByTestId('review-word').waitFor()
    await page.keyboard.press('Space')
    await dialog.getByRole('group', { name: 'Wie gut wusstest du es?' }).waitFor()
    for (const rating of ['Nochmal', 'Schwer', 'Gut', 'Leicht'])
      await dialog.getByRole('button', { name: new RegExp(`^${rating}`) }).waitFor()
    expect(await englishLeftOn(page)).toEqual([])
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await page.waitForLoadState('networkidle')

    for (const [path, meta] of [
      ['/progress', 'progress'],
      ['/sidereal-time', 'siderealTime'],
      ['/practice', 'practice'],
      ['/settings', 'settings'],
    ] as const) {
      await page.goto(base + path)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.waitForLoadState('networkidle')
      expect(await page.title(), path).toBe(german(`common:pageMeta.${meta}.title`))
      expect(await englishLeftOn(page), path).toEqual([])
    }

    // Another language chosen in Settings is kept for this browser.
    await page.getByRole('combobox', { name: 'Sprache der Oberfläche' }).click()
    await page.getByRole('option', { name: 'Français' }).click()
    await page.getByRole('heading', { level: 1, name: 'Paramètres' }).waitFor()
    expect(await page.locator('html').getAttribute('lang')).toBe('fr')
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Paramètres' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('names the English left on a page (planted: a German page with an English sentence)', async () => {
    const context = await browser.newContext({ locale: 'de-DE' })
    const page = await context.newPage()
    await page.goto(base + '/')
    await page.getByRole('button', { name: german('common:header.openMenu') }).waitFor()
    const planted = en.get('common:notFound.message') ?? ''
    await page.evaluate((text) => {
      type Doc = {
        createElement(tag: string): { textContent: string }
        body: { append(node: unknown): void }
      }
      const doc = (globalThis as unknown as { document: Doc }).document
      const p = doc.createElement('p')
      p.textContent = text
      doc.body.append(p)
    }, planted)
    expect(await englishLeftOn(page)).toEqual([planted])
    await context.close()
  })
})

describe('the descriptor trainer with a Japanese interface', () => {
  it('says which language it trains in and why (no Japanese descriptors), until one is chosen', async () => {
    const context = await browser.newContext({
      locale: 'ja-JP',
      viewport: { width: 1366, height: 850 },
    })
    const page = await context.newPage()
    const problems = watchProblems(page)
    // The administrators' default applies where the interface language has no descriptors.
    const settings = (await (await fetch(`${base}/api/settings`)).json()) as {
      defaultLanguage?: string
    }
    const inJapanese = new Intl.DisplayNames('ja', { type: 'language' })
    const trained = inJapanese.of(settings.defaultLanguage ?? 'en')
    await page.goto(base + '/descriptors')
    await page
      .getByText(
        `${trained}でトレーニングしています。日本語の記述語はまだありません。別の言語は「言語」で選べます。`,
      )
      .waitFor()
    await page.getByRole('combobox', { name: '言語' }).click()
    await page.getByRole('option', { name: 'イタリア語' }).click()
    await page.getByText('イタリア語でトレーニングしています（選んだ言語）。').waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })
})

describe('settings', () => {
  it('downloads all of a user’s data, then deletes their account and this browser’s copies', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, base, newPhone())
    const session = {
      id: crypto.randomUUID(),
      activity: 'ideogram',
      startedAt: new Date(Date.now() - 600_000).toISOString(),
      durationMs: 240_000,
      speeds: ['normal'],
      gestalts: ['land'],
    }
    const recorded = await fetch(`${base}/api/history/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(session),
    })
    expect(recorded.status).toBe(201)
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/settings')
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all my data' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^crv-training-account-\d{4}-\d{2}-\d{2}\.json$/)
    const exported = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')) as {
      format: string
      descriptors: { trainingSessions: { id: string }[] }
    }
    expect(exported.format).toBe('crv-training-account/1')
    expect(exported.descriptors.trainingSessions.map((s) => s.id)).toEqual([session.id])

    await page.getByRole('button', { name: 'Delete my account' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete your account for good?' })
    const confirm = dialog.getByRole('button', { name: 'Delete account' })
    expect(await confirm.isDisabled()).toBe(true)
    await dialog.getByRole('checkbox', { name: 'I understand that this cannot be undone' }).check()
    await confirm.click()
    await page.getByRole('heading', { level: 1, name: 'Your account has been deleted' }).waitFor()
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(me.status).toBe(401)
    expect(
      await page.evaluate(() =>
        Object.keys(localStorage).filter((k) => k === 'crv.session.user' || k.includes('outbox')),
      ),
    ).toEqual([])
    await page.getByRole('button', { name: 'Return to Home' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })
})
