// A pool that lasts (issue [24] items 1 and 5), as people see it. In a pool of five pictures a
// viewer's second and third sets come from pictures shown to them before: the session page says
// so, calmly, with the date; the statistics can be kept to fresh pictures (or seen ones), the
// choice in the URL; and the administrator's pool health shows the pool's size, its one crowded
// gestalt class, and the viewer by a short code with no fresh session left. Sessions are run
// through the API: what is checked is what the pages show of them.
import { randomUUID } from 'node:crypto'
import { describe, expect, it, inject } from 'vitest'
import type { APIRequestContext, Browser, Page } from 'playwright-core'
import { grainyJpeg } from '../pictures.ts'
import { adminPhoneOf, newPhone, signInByOutbox } from './accounts.ts'
import { watchProblems, withBrowser } from './browser.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

type Started = { id: string; picturesSeen: { familiarity: string; lastShownAt: string | null } }

/** A session in the pool through the API: started and, unless `open`, locked and judged. */
async function session(
  request: APIRequestContext,
  token: string,
  poolId: string,
  open = false,
): Promise<Started> {
  const headers = { authorization: `Bearer ${token}` }
  const res = await request.post(`${base}/api/practice/sessions`, {
    headers,
    data: { candidates: 5, poolId },
  })
  expect(res.status(), await res.text()).toBe(201)
  const started = (await res.json()) as Started
  if (open) return started
  const locked = await request.post(`${base}/api/practice/sessions/${started.id}/lock`, {
    headers,
  })
  const { candidates } = (await locked.json()) as { candidates: { id: string }[] }
  const judged = await request.post(`${base}/api/practice/sessions/${started.id}/judge`, {
    headers,
    data: { ranking: candidates.map((c) => c.id) },
  })
  expect(judged.ok(), await judged.text()).toBe(true)
  return started
}

/** The statistics page's summary line, once it says `text`. */
const summary = (page: Page, text: string) =>
  page.getByText(text, { exact: true }).waitFor({ timeout: 15_000 })

describe('pictures seen before', () => {
  it('says so on the session page, filters the statistics by it, and shows in the pool’s health', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const admin = await signInByOutbox(adminContext.request, base, adminPhone)
    const asAdmin = { authorization: `Bearer ${admin}` }
    const poolName = `Five pictures ${randomUUID().slice(0, 8)}`
    const pool = await adminContext.request.post(`${base}/api/admin/practice/pools`, {
      headers: asAdmin,
      data: { name: poolName },
    })
    const { id: poolId } = (await pool.json()) as { id: string }
    // Three of five are land: 60 %, above the 30 % the pool's health warns from.
    const created = await adminContext.request.post(`${base}/api/admin/practice/targets`, {
      headers: asAdmin,
      data: {
        poolId,
        targets: await Promise.all(
          [0, 1, 2, 3, 4].map(async (i) => ({
            image: (await grainyJpeg(320, 240)).toString('base64'),
            title: `Picture ${i}`,
            feedback: `Picture ${i}.`,
            tags: i < 3 ? ['land-gestalt', 'rough'] : ['water-gestalt', 'cold'],
            licence: 'own',
            source: '',
          })),
        ),
      },
    })
    expect(((await created.json()) as { created: unknown[] }).created).toHaveLength(5)

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, base, newPhone())
    const first = await session(context.request, token, poolId)
    await session(context.request, token, poolId)
    const third = await session(context.request, token, poolId, true)
    expect(first.picturesSeen.familiarity).toBe('unseen')
    expect(third.picturesSeen.familiarity).toBe('recent')

    const page = await context.newPage()
    const problems = watchProblems(page)
    const statsAsked: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/practice/stats')) statsAsked.push(r.url().slice(base.length))
    })
    await page.goto(`${base}/practice/session/${third.id}`)
    const shownOn = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(
      new Date(third.picturesSeen.lastShownAt ?? ''),
    )
    await page
      .getByRole('note')
      .filter({
        hasText: `Some of these pictures were shown to you before, the last time on ${shownOn}: this pool has no fresher set left for you. Every candidate shares this, so it favours none of them.`,
      })
      .waitFor()
    await page.goto(`${base}/practice/session/${first.id}`)
    await page.getByRole('heading', { level: 1, name: /^Session / }).waitFor()
    expect(await page.getByRole('note').count()).toBe(0)

    await page.goto(`${base}/practice/stats`)
    await summary(page, '3 sessions, 2 judged.')
    const filter = page.getByLabel('Sessions', { exact: true })
    await filter.selectOption({ label: 'Fresh pictures only' })
    await summary(page, '1 session, 1 judged.')
    expect(new URL(page.url()).search).toBe('?familiarity=unseen')
    await filter.selectOption({ label: 'Pictures seen in the last 180 days' })
    await summary(page, '2 sessions, 1 judged.')
    await page.reload()
    await summary(page, '2 sessions, 1 judged.')
    expect(await filter.inputValue()).toBe('recent')
    await filter.selectOption({ label: 'All' })
    await summary(page, '3 sessions, 2 judged.')
    expect(new URL(page.url()).search).toBe('')
    expect(statsAsked).toContain('/api/practice/stats')
    expect(statsAsked.filter((u) => u.endsWith('?'))).toEqual([])
    expect(problems, problems.join('\n')).toEqual([])

    const adminPage = await adminContext.newPage()
    const adminProblems = watchProblems(adminPage)
    await adminPage.goto(`${base}/admin/targets`)
    await adminPage.getByRole('combobox', { name: 'Pool', exact: true }).click()
    await adminPage.getByRole('option', { name: new RegExp(poolName) }).click()
    const health = adminPage.getByRole('region', { name: 'Pool health' })
    await health.getByText('5 active targets (retired ones are not drawn).').waitFor()
    await health
      .getByRole('alert')
      .filter({ hasText: /^Land makes up 60% of the pool, above 30%/ })
      .waitFor()
    await health.getByText(/^No second tags yet/).waitFor()
    const viewers = health.getByRole('table', { name: 'Fresh sessions left' })
    // The header, and the one viewer: a short code, 3 sessions, no fresh or older set left.
    expect(await viewers.getByRole('row').count()).toBe(2)
    const row = viewers.getByRole('row').nth(1)
    expect(await row.getByRole('rowheader').innerText()).toMatch(/^[0-9a-f]{8}$/)
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([
      '3',
      '0\nsets of 5, from 0 never shown',
      '0\n0 pictures shown over 180 days ago',
    ])
    expect(adminProblems, adminProblems.join('\n')).toEqual([])
    await adminContext.close()
    await context.close()
  }, 120_000)
})
