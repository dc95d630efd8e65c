// A contributed picture's way into a pool (issue [24] items 2 and 3), on a desktop and on a
// 390 px phone: a user sends their own photograph with tags found in another language from
// "My contributions"; an administrator tags it second on /admin/targets without being shown the
// contributor's tags, sees Cohen's κ, confirms a disputed tag and approves it into a new pool,
// where it then is a target; the contributor sees it in the pool.
import { beforeAll, describe, expect, it, inject } from 'vitest'
import { unseenPicture } from '@crv/kit/testing'
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core'
import { seriousViolations } from './a11y.ts'
import { adminPhoneOf, newPhone, signInByOutbox } from './accounts.ts'
import { watchProblems, withBrowser } from './browser.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
const shots = process.env.CONTRIBUTION_SCREENSHOTS

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
}

let browser: Browser
let adminState: Awaited<ReturnType<BrowserContext['storageState']>>

withBrowser((launched) => (browser = launched))
beforeAll(async () => {
  // One administrator sign-in for both journeys (a second code for one number waits a cooldown).
  const context = await browser.newContext()
  await signInByOutbox(context.request, base, adminPhone)
  adminState = await context.storageState()
  await context.close()
})

async function screenshot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true })
}

async function pickTag(picker: Locator, page: Page, typed: string, option: string) {
  await picker.fill(typed)
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** Nothing wider than the screen (a phone would zoom the whole page out), no serious violation. */
async function expectFits(page: Page, options: BrowserContextOptions) {
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
    options.viewport?.width ?? 0,
  )
  expect(await seriousViolations(page)).toEqual([])
}

async function contributionJourney(options: BrowserContextOptions, device: string) {
  const title = `A harbour at dawn, from a ${device} ${Date.now()}`

  // The contributor: from the practice page to "My contributions", and a picture sent.
  const contributor = await browser.newContext(options)
  await signInByOutbox(contributor.request, base, newPhone())
  const page = await contributor.newPage()
  const problems = watchProblems(page)
  await page.goto(`${base}/practice`)
  await page.getByRole('link', { name: 'My contributions' }).click()
  await page.getByRole('heading', { level: 1, name: 'My contributions' }).waitFor()
  await page.getByText('You have not sent a picture yet.').waitFor()
  await page.locator('input[type=file]').setInputFiles({
    name: 'harbour.jpg',
    mimeType: 'image/jpeg',
    buffer: await unseenPicture(),
  })
  await page.getByRole('img', { name: 'The chosen picture' }).waitFor()
  await page.getByLabel('Title').fill(title)
  await page.getByLabel(/^What it shows/).fill('Boats moored in a still harbour under a pale sky.')
  const tags = page.getByRole('combobox', { name: /^Tags/ })
  // A word in German finds the concept: the tags are the vocabulary's, in any language.
  await pickTag(tags, page, 'Boot', 'boat (boat)')
  await pickTag(tags, page, 'ocean', 'ocean (ocean)')
  await page.getByRole('radio', { name: 'I took this photograph' }).check()
  await expectFits(page, options)
  await screenshot(page, `contribution-form-${device}`)
  await page.getByRole('button', { name: 'Send for moderation' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: `Thank you: “${title}” is waiting for moderation.` })
    .waitFor()
  const mine = page.getByRole('listitem', { name: title })
  await expect.poll(() => mine.innerText()).toContain('Waiting for moderation')

  // The administrator: tags it blind, then approves it into a new pool with a disputed tag.
  const admin = await browser.newContext({ ...options, storageState: adminState })
  const adminPage = await admin.newPage()
  const adminProblems = watchProblems(adminPage)
  await adminPage.goto(`${base}/admin/targets`)
  await adminPage.getByRole('heading', { level: 1, name: 'Practice targets' }).waitFor()
  const pool = `Contributed on a ${device} ${Date.now()}`
  await adminPage.getByLabel('New pool name').fill(pool)
  await adminPage.getByRole('button', { name: 'Create pool' }).click()
  await expect
    .poll(() => adminPage.getByRole('combobox', { name: 'Pool', exact: true }).innerText())
    .toContain(pool)

  const card = adminPage.getByRole('article', { name: title })
  await card.getByText(/^Tag it from the picture as the second tagger/).waitFor()
  // Neither the contributor's tags nor their description are on the page before the second tags.
  expect(await card.innerText()).not.toMatch(/boat|Boats moored/)
  await expectFits(adminPage, options)
  await screenshot(adminPage, `contribution-blind-${device}`)
  const secondTags = card.getByRole('combobox', { name: `Your tags for “${title}”` })
  await pickTag(secondTags, adminPage, 'ocean', 'ocean (ocean)')
  await pickTag(secondTags, adminPage, 'calm', 'calm (calm)')
  await card.getByRole('button', { name: 'Save my tags' }).click()

  // Both sets with their agreement: κ over the 1,400 concepts, one tag each apart.
  await card.getByText('Agreement between the taggers (Cohen’s κ): 0.50').waitFor()
  await card.getByText('Boats moored in a still harbour under a pale sky.').waitFor()
  await card.getByRole('checkbox', { name: 'boat' }).check()
  await card.getByRole('combobox', { name: 'Into the pool' }).click()
  await adminPage.getByRole('option', { name: pool }).click()
  await expectFits(adminPage, options)
  await screenshot(adminPage, `contribution-decide-${device}`)
  await card.getByRole('button', { name: 'Approve with 2 tags' }).click()
  await card.waitFor({ state: 'detached' })

  // In the pool: a target of the chosen pool, and listed as such with its κ.
  await adminPage.getByRole('combobox', { name: 'Pool', exact: true }).click()
  await adminPage.getByRole('option', { name: new RegExp(`^${pool}`) }).click()
  await adminPage.getByRole('heading', { level: 3, name: title }).waitFor()
  await expect
    .poll(() => adminPage.getByRole('combobox', { name: 'Pool', exact: true }).innerText())
    .toContain('(1 active of 1)')
  await adminPage.getByRole('button', { name: 'In a pool' }).click()
  const placed = adminPage.getByRole('article', { name: title })
  await expect.poll(() => placed.innerText()).toMatch(/κ\): 0\.50[\s\S]*boat[\s\S]*ocean/)
  expect(adminProblems, adminProblems.join('\n')).toEqual([])
  // The refresh cookie is rotated as the page uses it: the next journey goes on with this one's.
  adminState = await admin.storageState()
  await admin.close()

  // The contributor sees where it went.
  await page.reload()
  await expect.poll(() => mine.innerText()).toContain('In a target pool')
  await expectFits(page, options)
  await screenshot(page, `contribution-placed-${device}`)
  expect(problems, problems.join('\n')).toEqual([])
  await contributor.close()
}

describe('a contribution through moderation and second tagging into a pool', () => {
  it('on a desktop', async () => {
    await contributionJourney(DESKTOP, 'desktop')
  }, 120_000)

  it('on a 390 px phone', async () => {
    await contributionJourney(PHONE, 'phone')
  }, 120_000)
})
