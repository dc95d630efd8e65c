import { readFile } from 'node:fs/promises'
import { describe, expect, it, inject } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'
import { signIn } from './accounts.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

type Category = { id: number; name: string; stage: string }
type Descriptor = { id: number; word: string; gestaltId: number | null; hidden: boolean }

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(base + path)
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

/** The words a visitor may train with in a gestalt, as the server lists them. */
async function gestaltWords(language: string, gestaltId: number): Promise<Set<string>> {
  const bulk = await getJson<{ systemDescriptors: Descriptor[] }>(
    `/api/descriptors/bulk?language=${language}`,
  )
  return new Set(bulk.systemDescriptors.filter((d) => d.gestaltId === gestaltId).map((d) => d.word))
}

function categoryRow(page: Page, name: string): Locator {
  return page.locator('tr', { has: page.getByRole('rowheader', { name, exact: true }) })
}

/** The words of a row's 'Sample Descriptors' cell, without the '+N more'. */
async function sampleWordsOf(row: Locator): Promise<string[]> {
  const text = await row.getByRole('cell').nth(2).innerText()
  return text
    .replace(/\s*\+\d+ more\s*$/, '')
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean)
}

async function shownWord(dialog: Locator): Promise<string> {
  const word = dialog.getByTestId('training-word')
  await word.waitFor()
  return (await word.innerText()).trim()
}

/** Waits until the dialog shows a word other than `previous` and returns it. */
async function nextWord(dialog: Locator, previous: string): Promise<string> {
  const word = dialog.getByTestId('training-word')
  await expect
    .poll(async () => (await word.isVisible()) && (await word.innerText()))
    .not.toBe(previous)
  return shownWord(dialog)
}

describe('descriptor trainer, signed out', () => {
  it('trains in German on Stage 1-2: a word, the next word and related words', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems = watchProblems(page)
    const [gestalt] = await getJson<Category[]>('/api/gestalts?language=de')
    if (!gestalt) throw new Error('no gestalts')
    const words = await gestaltWords('de', gestalt.id)

    await page.goto(base + '/descriptors')
    await page.getByRole('combobox', { name: 'Language' }).click()
    await page.getByRole('option', { name: /Deutsch/ }).click()
    expect(await page.evaluate(() => localStorage.getItem('preferredLanguage'))).toBe('de')

    const start = page.getByRole('button', { name: 'Start Training' })
    expect(await start.isDisabled()).toBe(true)
    await page.getByRole('checkbox', { name: `Select ${gestalt.name}` }).check()
    await start.click()

    const dialog = page.getByRole('dialog', { name: /Descriptor Training/ })
    const first = await shownWord(dialog)
    expect(words).toContain(first)
    await dialog.getByText(`Gestalt · ${gestalt.name}`).waitFor()
    // The session hides Start Training until it ends.
    expect(await start.count()).toBe(0)

    await dialog.getByRole('button', { name: 'Next' }).click()
    const second = await nextWord(dialog, first)
    expect(words).toContain(second)

    await page.keyboard.press('ArrowRight')
    const third = await nextWord(dialog, second)
    expect(words).toContain(third)

    await page.keyboard.press('r')
    const related = dialog.getByRole('list', { name: 'Related Descriptors' })
    await related.waitFor()
    const relatedWords = (await related.getByRole('listitem').allInnerTexts()).map((w) => w.trim())
    expect(relatedWords.length).toBeGreaterThan(0)
    expect(relatedWords).not.toContain(third)
    for (const word of relatedWords) expect(words).toContain(word)

    // Next clears the revealed words.
    await page.keyboard.press('Enter')
    await nextWord(dialog, third)
    expect(await related.count()).toBe(0)

    await dialog.getByRole('button', { name: 'End Training' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await start.waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('trains in each of the five languages with that language’s words and category names', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems = watchProblems(page)
    await page.goto(base + '/descriptors')
    const languages = [
      ['en', 'English'],
      ['de', 'Deutsch'],
      ['fr', 'Français'],
      ['es', 'Español'],
      ['it', 'Italiano'],
    ] as const
    for (const [code, name] of languages) {
      // The last gestalt, so that the table's category names are the ones of this language.
      const gestalt = (await getJson<Category[]>(`/api/gestalts?language=${code}`)).at(-1)
      if (!gestalt) throw new Error(`no gestalts in ${code}`)
      const words = await gestaltWords(code, gestalt.id)
      await page.getByRole('combobox', { name: 'Language' }).click()
      await page.getByRole('option', { name: new RegExp(name) }).click()
      await page.getByRole('checkbox', { name: `Select ${gestalt.name}` }).check()
      await page.getByRole('button', { name: 'Start Training' }).click()

      const dialog = page.getByRole('dialog', { name: /Descriptor Training/ })
      const first = await shownWord(dialog)
      expect(words, `${code}: ${first}`).toContain(first)
      await dialog.getByText(`Gestalt · ${gestalt.name}`).waitFor()
      await dialog.getByRole('button', { name: 'Next' }).click()
      expect(words).toContain(await nextWord(dialog, first))
      await dialog.getByRole('button', { name: 'End Training' }).click()
      await dialog.waitFor({ state: 'hidden' })
    }
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('asks a visitor to sign in for Stage 2-3 and 4-6, for full lists and for exports', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems = watchProblems(page)
    await page.goto(base + '/descriptor-training')
    const stage23 = page.getByRole('button', { name: /Stage 2-3/ })
    await stage23.getByText('Sign in required').waitFor()
    await page
      .getByRole('button', { name: /Stage 4-6/ })
      .getByText('Sign in required')
      .waitFor()
    await page.getByRole('button', { name: 'Access all gestalts & perceptions' }).waitFor()
    expect(await page.getByRole('button', { name: /^Add Word/ }).count()).toBe(0)

    await stage23.click()
    const signIn = page.getByRole('dialog', { name: 'Unlock Premium Features' })
    await signIn.waitFor()
    await page.keyboard.press('Escape')
    await signIn.waitFor({ state: 'hidden' })
    expect(await stage23.getAttribute('aria-pressed')).toBe('false')

    await page
      .getByRole('button', { name: /^View All/ })
      .first()
      .click()
    await signIn.waitFor()
    await page.keyboard.press('Escape')
    await signIn.waitFor({ state: 'hidden' })

    // The export card's way to sign in opens the sign-in dialog where the visitor is.
    await page.getByRole('button', { name: 'Go to Sign In' }).click()
    await signIn.waitFor()
    await page.keyboard.press('Escape')
    await signIn.waitFor({ state: 'hidden' })

    await page.goto(base + '/admin')
    await page.getByText('Please log in to view your custom descriptors.').waitFor()
    await page.goto(base + '/export-data')
    await page.getByRole('heading', { name: 'Sign In Required' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('fetches the training dialog once the page is idle; a click before it is in opens it then', async () => {
    // No service worker: its fetches would pass the test's hold on the dialog's code.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      serviceWorkers: 'block',
    })
    const page = await context.newPage()
    const problems = watchProblems(page)
    const [gestalt] = await getJson<Category[]>('/api/gestalts?language=en')
    if (!gestalt) throw new Error('no gestalts')
    let asked = false
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/voiced-training-dialog-[\w-]+\.js$/, async (route) => {
      asked = true
      const response = await route.fetch()
      await held
      await route.fulfill({ response })
    })

    await page.goto(base + '/descriptors')
    // Asked for without a click, once the page is idle.
    await expect.poll(() => asked).toBe(true)
    await page.getByRole('checkbox', { name: `Select ${gestalt.name}` }).check()
    const start = page.getByRole('button', { name: 'Start Training' })
    await start.click()
    const dialog = page.getByRole('dialog', { name: /Descriptor Training/ })
    await page.waitForTimeout(300)
    expect(await dialog.count()).toBe(0)

    release()
    expect(await shownWord(dialog)).not.toBe('')
    await expect.poll(() => dialog.evaluate((d) => d.matches(':focus-within'))).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect.poll(() => start.evaluate((el) => el.matches(':focus'))).toBe(true)
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })
})

describe('descriptor trainer, signed in', () => {
  it('lists a word the manual puts in several categories in each, hidden in all at once', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems = watchProblems(page)
    await page.goto(base + '/descriptors')
    await signIn(page, base)
    await page.getByRole('button', { name: /Stage 2-3/ }).click()

    const allOf = async (name: string) => {
      await categoryRow(page, name)
        .getByRole('button', { name: `View All ${name}` })
        .click()
      const dialog = page.getByRole('dialog', { name: `All Descriptors - ${name}` })
      await dialog.waitFor()
      return dialog
    }
    const close = async (dialog: Locator) => {
      await dialog.getByRole('button', { name: 'Close' }).first().click()
      await dialog.waitFor({ state: 'hidden' })
    }
    // 'soft' is a First Feeling, a texture and a dimensional; 'rough' a texture only.
    const textures = await allOf('Textures')
    await textures.getByRole('button', { name: 'Hide rough', exact: true }).waitFor()
    await textures.getByRole('button', { name: 'Hide soft', exact: true }).click()
    await page.getByText('"soft" has been hidden from your view.').waitFor()
    await close(textures)
    for (const name of ['First Feelings', 'Dimensionals']) {
      const dialog = await allOf(name)
      await dialog.getByRole('button', { name: 'Unhide soft', exact: true }).waitFor()
      expect(await dialog.getByRole('button', { name: 'Hide rough', exact: true }).count()).toBe(0)
      await close(dialog)
    }
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('trains on Stage 4-6, adds, hides, exports and deletes words', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems = watchProblems(page)
    const gestalts = await getJson<Category[]>('/api/gestalts?language=en')
    const perceptions = await getJson<Category[]>('/api/perceptions?language=en')
    const gestalt = gestalts[0]
    const late = perceptions.find((p) => p.stage === 'Stage 4-6')
    if (!gestalt || !late) throw new Error('no categories')

    await page.goto(base + '/descriptors')
    await signIn(page, base)

    // Stage 4-6 opens after sign-in; training draws from the chosen perception.
    await page.getByRole('button', { name: /Stage 4-6/ }).click()
    await page.getByRole('checkbox', { name: `Select ${late.name}` }).check()
    await page.getByRole('button', { name: 'Start Training' }).click()
    const training = page.getByRole('dialog', { name: /Descriptor Training/ })
    await shownWord(training)
    await training.getByText(`Perception · ${late.name}`).waitFor()
    await page.keyboard.press('Escape')
    await training.waitFor({ state: 'hidden' })

    // A custom word of one's own shows in 'View All' at once, pending review.
    const word = `Glimmerwave ${Math.floor(Math.random() * 1e6)}`
    await page.getByRole('button', { name: `Add Word to ${gestalt.name}` }).click()
    const addWord = page.getByRole('dialog', { name: 'Add Custom Word' })
    const submit = addWord.getByRole('button', { name: 'Add Word' })
    await addWord.getByLabel('Word').fill('   ')
    expect(await submit.isDisabled()).toBe(true)
    await addWord.getByLabel('Word').fill(`  ${word} `)
    await submit.click()
    await page.getByText('Word Added', { exact: true }).waitFor()
    await addWord.waitFor({ state: 'hidden' })

    const row = categoryRow(page, gestalt.name)
    await row.getByRole('button', { name: `View All ${gestalt.name}` }).click()
    const all = page.getByRole('dialog', { name: `All Descriptors - ${gestalt.name}` })
    await all.getByRole('button', { name: `Delete ${word}` }).waitFor()
    // The first default word (community words other tests approved may come first: those
    // cannot be hidden, only shipped ones can).
    const hideFirst = all.getByRole('button', { name: /^Hide / }).first()
    const hiddenWord = (
      (await hideFirst.evaluate((b) => b.getAttribute('aria-label') ?? b.textContent)) ?? ''
    ).replace(/^Hide /, '')

    // Hiding a default word takes it out of the samples, also once the data is fetched anew.
    const refetched = page.waitForResponse(
      (r) => r.url().includes('/api/descriptors/bulk?') && r.request().method() === 'GET',
    )
    await all.getByRole('button', { name: `Hide ${hiddenWord}`, exact: true }).click()
    const fresh = (await (await refetched).json()) as { systemDescriptors: Descriptor[] }
    const hiddenNow = fresh.systemDescriptors.find(
      (d) => d.word === hiddenWord && d.gestaltId === gestalt.id,
    )
    expect(hiddenNow?.hidden).toBe(true)
    await page.getByText(`"${hiddenWord}" has been hidden from your view.`).waitFor()
    await all.getByRole('button', { name: `Unhide ${hiddenWord}`, exact: true }).waitFor()
    await all.getByRole('button', { name: 'Close' }).first().click()
    await all.waitFor({ state: 'hidden' })
    await expect.poll(() => sampleWordsOf(row)).not.toContain(hiddenWord)
    expect(await sampleWordsOf(row)).not.toHaveLength(0)

    // The CSV export keeps the BOM Excel needs and the server's file name.
    const exportCard = page.getByRole('region', { name: 'Export Your Descriptors' })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportCard.getByRole('button', { name: 'English' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^my_descriptors_en_\d{4}-\d{2}-\d{2}\.csv$/)
    const bytes = await readFile(await download.path())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.subarray(3).toString('utf8').split(/\r?\n/)
    expect(lines[0]).toBe('ID;Word;Language;Status;Gestalt Name;Perception Name')
    expect(lines.some((line) => line.includes(`;${word};en;pending;${gestalt.name};`))).toBe(true)
    await page.getByText('Export Successful', { exact: true }).waitFor()

    // /admin lists the word and deletes it after asking.
    await page.getByRole('link', { name: 'Advanced Export' }).click()
    await page.getByRole('heading', { name: 'Export Your Data' }).waitFor()
    expect(await page.getByRole('button', { name: /^Export CSV/ }).count()).toBe(7)
    // Each language says how many words its file holds; one without words offers no download.
    const card = (name: string) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) })
    await card('English').getByText('1 word', { exact: true }).waitFor()
    await card('Deutsch').getByText('No words of yours yet').waitFor()
    expect(
      await card('Deutsch')
        .getByRole('button', { name: /^Export CSV/ })
        .isDisabled(),
    ).toBe(true)
    await page.goto(base + '/admin')
    await page.getByRole('heading', { name: 'Manage Your Custom Descriptors' }).waitFor()
    await page.getByRole('button', { name: `Delete ${word}` }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete Custom Descriptor' })
    await confirm.getByText('cannot be undone').waitFor()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Descriptor deleted successfully', { exact: true }).waitFor()
    await page.getByText("You haven't created any custom descriptors yet.").waitFor()

    await page.getByRole('link', { name: 'Back to Descriptor Training' }).click()
    await page.getByRole('heading', { name: 'Descriptor Training' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})
