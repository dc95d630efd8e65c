import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'
import { adminPhoneOf, signIn } from './accounts.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
const languages = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
let browser: Browser

withBrowser((launched) => (browser = launched))

type Category = { id: number; name: string; stage: string }
type Descriptor = {
  id: number
  word: string
  gestaltId: number | null
  perceptionId: number | null
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(base + path)
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

/** The shipped vocabulary's words of each concept, by language, read from its data files. */
async function shippedConcepts(): Promise<Map<string, Record<string, string>>> {
  const concepts = new Map<string, Record<string, string>>()
  for (const language of languages) {
    const text = await readFile(
      new URL(`../../services/descriptors/data/vocabulary.${language}.csv`, import.meta.url),
      'utf8',
    )
    const [header, ...lines] = text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter(Boolean)
    const column = (header ?? '').split(';').indexOf(language)
    for (const line of lines) {
      const cells = line.split(';')
      const id = cells[0] ?? ''
      const word = cells[column]
      if (!word) continue
      concepts.set(id, { ...(concepts.get(id) ?? {}), [language]: word })
    }
  }
  return concepts
}

/** The visitor's (Stage 1-2) words of a language. */
async function openWords(language: string): Promise<Set<string>> {
  const bulk = await getJson<{ systemDescriptors: Descriptor[] }>(
    `/api/descriptors/bulk?language=${language}`,
  )
  return new Set(bulk.systemDescriptors.map((d) => d.word))
}

const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

describe('administration', () => {
  let adminContext: BrowserContext
  let admin: Page
  let adminProblems: string[]

  beforeAll(async () => {
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    admin = await adminContext.newPage()
    adminProblems = watchProblems(admin)
  })
  afterAll(async () => {
    await adminContext?.close()
  })

  it('refuses visitors and users with their own Access Denied text', async () => {
    const page = await browser.newPage()
    const problems = watchProblems(page)
    for (const path of ['/admin-panel', '/admin/descriptors', '/admin/pending-descriptors']) {
      await page.goto(base + path)
      await page.getByRole('heading', { name: 'Access Denied' }).waitFor()
      await page.getByText('You must be signed in as an administrator to view this page.').waitFor()
    }
    await signIn(page, base)
    await page.getByText('You do not have administrator privileges to view this page.').waitFor()
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('promotes one user word and rejects another; the promoted one reaches other users', async () => {
    const [gestalt] = await getJson<Category[]>('/api/gestalts?language=en')
    if (!gestalt) throw new Error('no gestalts')
    const n = Math.floor(Math.random() * 1e6)
    const keep = `Lumivelle ${n}`
    const drop = `Quorrest ${n}`

    // A user submits two words from the trainer.
    const author = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const authorProblems = watchProblems(author)
    await author.goto(base + '/descriptors')
    await signIn(author, base)
    for (const word of [keep, drop]) {
      await author.getByRole('button', { name: `Add Word to ${gestalt.name}` }).click()
      const dialog = author.getByRole('dialog', { name: 'Add Custom Word' })
      await dialog.getByLabel('Word').fill(word)
      await dialog.getByRole('button', { name: 'Add Word' }).click()
      await dialog.waitFor({ state: 'hidden' })
    }
    expect(authorProblems, authorProblems.join('\n')).toEqual([])
    await author.close()

    // The administrator reviews them.
    await admin.goto(base + '/admin/pending-descriptors')
    await signIn(admin, base, adminPhone)
    const keepCard = admin.getByRole('listitem', { name: keep })
    const dropCard = admin.getByRole('listitem', { name: drop })
    // The card names the gestalt the word is for.
    await keepCard.getByText(`Gestalt: ${gestalt.name} (Stage 1-2)`).waitFor()
    await keepCard.getByText(/^Submitted [A-Z][a-z]{2} \d{2}, \d{4} at \d{2}:\d{2}$/).waitFor()
    await keepCard.getByText(/^By .{8}$/).waitFor()
    await keepCard.getByText('EN', { exact: true }).waitFor()
    await keepCard.getByRole('button', { name: 'Promote to System' }).click()
    await admin.getByText('Descriptor promoted to main system').waitFor()
    await keepCard.waitFor({ state: 'detached' })
    await dropCard.getByRole('button', { name: 'Reject' }).click()
    await admin.getByText('Descriptor rejected and removed').waitFor()
    await dropCard.waitFor({ state: 'detached' })

    // Another user sees the promoted word in the trainer, and not the rejected one.
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const otherProblems = watchProblems(other)
    await other.goto(base + '/descriptors')
    await signIn(other, base)
    await other.getByRole('button', { name: `View All ${gestalt.name}` }).click()
    const all = other.getByRole('dialog', { name: `All Descriptors - ${gestalt.name}` })
    await all.getByText(keep, { exact: true }).waitFor()
    expect(await all.getByText(drop, { exact: true }).count()).toBe(0)
    expect(otherProblems, otherProblems.join('\n')).toEqual([])
    await other.close()
  })

  it('finds a word without its accent and bulk-deletes two concepts in all seven languages', async () => {
    const concepts = await shippedConcepts()
    const open = await openWords('fr')
    const complete = [...concepts].filter(
      ([, words]) => languages.every((l) => words[l]) && open.has(words.fr ?? ''),
    )
    // A French word with an accent, and a second concept of the visitor's stage.
    const accented = complete.find(([, w]) => /[éèêàç]/.test(w.fr ?? '') && w.fr !== w.en)
    const second = complete.find(
      ([id, w]) => id !== accented?.[0] && /^[a-z]{6,}$/.test(w.en ?? ''),
    )
    if (!accented || !second) throw new Error('no suitable concepts in the vocabulary')
    const [, first] = accented
    const [, other] = second
    for (const language of languages) {
      const words = await openWords(language)
      expect(words.has(first[language] ?? '')).toBe(true)
      expect(words.has(other[language] ?? '')).toBe(true)
    }

    await admin.goto(base + '/admin/descriptors')
    await admin.getByRole('heading', { name: 'Descriptor Management' }).waitFor()
    const search = admin.getByLabel('Search descriptors')
    // Without its accent, and Enter searches.
    await search.fill(fold(first.fr ?? ''))
    await search.press('Enter')
    await admin.getByRole('checkbox', { name: `Select ${first.fr} (fr)` }).check()
    await search.fill(other.en ?? '')
    await admin.getByRole('combobox', { name: 'Language' }).click()
    await admin.getByRole('option', { name: 'EN' }).click()
    await admin.getByRole('button', { name: 'Search' }).click()
    await admin.getByRole('checkbox', { name: `Select ${other.en} (en)` }).check()
    // The count is of what was found, not of all, and in the right number ('1 descriptor').
    const found = admin.getByText(/^\d+ descriptors? found$/)
    await found.waitFor()
    const n = Number((await found.innerText()).split(' ')[0])
    await admin
      .getByText(`Showing 1 to ${n} of ${n} ${n === 1 ? 'descriptor' : 'descriptors'}`)
      .waitFor()
    await admin.getByText(/Page 1 of \d+/).waitFor()

    await admin.getByRole('button', { name: 'Delete Selected (All Languages)' }).click()
    const confirm = admin.getByRole('dialog', { name: 'Delete in All Languages' })
    await confirm.getByText(/Delete 2 selected descriptors in all seven languages/).waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await admin.getByText('Deleted 14 descriptors across all languages').waitFor()
    await admin.getByText('No Descriptors Found').waitFor()

    for (const language of languages) {
      const words = await openWords(language)
      expect(words.has(first[language] ?? '')).toBe(false)
      expect(words.has(other[language] ?? '')).toBe(false)
    }
  })

  it('shows real figures and saves the settings the trainer starts with', async () => {
    await admin.goto(base + '/admin-panel?tab=database')
    const tables = admin.getByRole('table', { name: 'Tables' })
    await tables.waitFor()
    const row = tables.getByRole('row', { name: /descriptors\.descriptors/ })
    const stats = await admin.evaluate(async () => (await fetch('/api/health')).status)
    expect(stats).toBe(200)
    await expect
      .poll(async () => (await row.innerText()).match(/\d[\d,]*/g)?.length, { timeout: 15_000 })
      .toBeGreaterThan(0)
    await admin.getByText(/descriptors: up/).waitFor()
    // The pages visited above reported their views (sent when each page closed).
    await expect
      .poll(
        async () => {
          // Leaving the tab and coming back reads the figures again.
          await admin.getByRole('tab', { name: 'Descriptors' }).click()
          await admin.getByRole('tab', { name: 'Database' }).click()
          const week = admin.getByRole('table', { name: 'Page views, last 7 days' })
          await week.waitFor()
          return week.getByRole('row', { name: /^\/descriptors \d+$/ }).count()
          // A closed page's beacon may still be on its way: ask again for a while.
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1)

    await admin.getByRole('button', { name: 'Optimize Tables' }).click()
    await admin
      .getByRole('dialog', { name: 'Optimize Tables' })
      .getByRole('button', { name: 'Optimize' })
      .click()
    await admin
      .getByText(/^Optimized \d+ tables in .*descriptors/)
      .first()
      .waitFor()
    // Logged: listed under 'Recent maintenance' once the figures reload.
    await admin
      .getByText(/optimize by .{8}: \d+ tables/)
      .first()
      .waitFor()

    await admin.getByRole('tab', { name: 'Settings' }).click()
    await admin.getByRole('combobox', { name: 'Default language' }).click()
    await admin.getByRole('option', { name: 'Deutsch' }).click()
    try {
      await admin.getByRole('button', { name: 'Save Settings' }).click()
      await admin.getByText('Settings Saved').waitFor()
      expect((await getJson<{ defaultLanguage: string }>('/api/settings')).defaultLanguage).toBe(
        'de',
      )
      // A visitor who never chose a language starts in the administrator's default.
      const visitor = await browser.newPage()
      await visitor.goto(base + '/descriptors')
      await expect
        .poll(() => visitor.getByRole('combobox', { name: 'Language' }).innerText(), {
          timeout: 15_000,
        })
        .toContain('Deutsch')
      await visitor.close()
    } finally {
      await admin.getByRole('combobox', { name: 'Default language' }).click()
      await admin.getByRole('option', { name: 'English' }).click()
      await admin.getByRole('button', { name: 'Save Settings' }).click()
      await expect
        .poll(
          async () => (await getJson<{ defaultLanguage: string }>('/api/settings')).defaultLanguage,
        )
        .toBe('en')
    }
    expect(adminProblems, adminProblems.join('\n')).toEqual([])
  })
})
