import { describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

const BERLIN = { latitude: 52.52, longitude: 13.405 }

async function open(options: BrowserContextOptions): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const problems = watchProblems(page, [{ path: '/api/sidereal-time/custom', status: 404 }])
  await page.goto(`${base}/sidereal-time`)
  return { page, problems }
}

/** Signed difference of two angles in degrees, wrapped to (−180, 180]. */
const angleDiff = (a: number, b: number) => ((((a - b) % 360) + 540) % 360) - 180
const degreesShown = async (page: Page) =>
  Number((await page.getByTestId('lst-degrees').textContent())?.replace('°', ''))

describe('the sidereal time page', () => {
  it('auto mode: shows the position, the UTC time and a ticking LST', async () => {
    const { page, problems } = await open({
      geolocation: BERLIN,
      permissions: ['geolocation'],
    })
    await expect.poll(() => page.getByTestId('auto-latitude').textContent()).toBe('52.5200')
    expect(await page.getByTestId('auto-longitude').textContent()).toBe('13.4050')
    await page.getByTestId('lst-formatted').waitFor()
    expect(await page.getByTestId('lst-formatted').textContent()).toMatch(/^\d\d:\d\d:\d\d$/)
    expect(await page.getByTestId('latitude').textContent()).toBe('52.5200')
    await expect.poll(() => page.getByText('Current UTC time').isVisible()).toBe(true)
    expect(await page.getByText('Location access needed for auto mode').count()).toBe(0)

    // The page's LST is the server's for this position, advanced at the sidereal rate.
    const server = (await (
      await fetch(`${base}/api/sidereal-time/auto?lat=52.52&lng=13.405`)
    ).json()) as { lst_degrees: number }
    expect(Math.abs(angleDiff(await degreesShown(page), server.lst_degrees))).toBeLessThan(0.1)

    // The clock keeps going between answers.
    const first = await page.getByTestId('lst-formatted').textContent()
    await expect.poll(() => page.getByTestId('lst-formatted').textContent()).not.toBe(first)
    expect(problems, problems.join('\n')).toEqual([])
    await page.context().close()
  })

  it('custom mode: a typed city and local time give the reference LST', async () => {
    const { page, problems } = await open({
      geolocation: BERLIN,
      permissions: ['geolocation'],
      timezoneId: 'America/Chicago',
    })
    await page.getByRole('button', { name: 'Custom Mode' }).click()
    const calculate = page.getByRole('button', { name: 'Calculate LST' })
    expect(await calculate.isDisabled()).toBe(true)

    await page.getByLabel('City (optional)').fill('Paris, TX')
    // 05:14 on 21 June in Chicago (CDT, UTC−5) is 10:14 UTC.
    await page.getByLabel('Date and time (optional)').fill('2024-06-21T05:14')
    await calculate.click()
    await expect
      .poll(() => page.getByTestId('place').textContent())
      .toBe('Paris, Texas, United States')
    expect(await page.getByTestId('utc-time').textContent()).toBe('2024-06-21 10:14:00 UTC')
    expect(await page.getByTestId('latitude').textContent()).toBe('33.6609')
    expect(await page.getByTestId('longitude').textContent()).toBe('-95.5555')
    // ERFA eraGst06a at 2024-06-21 10:14:00 UTC is 1.1100877217131475 rad; plus −95.55551°.
    expect(await page.getByTestId('lst-degrees').textContent()).toBe('328.0478°')
    expect(await page.getByTestId('lst-formatted').textContent()).toBe('21:52:11')
    expect(await page.getByTestId('lst-window').textContent()).toMatch(/^(Enters|Leaves) /)

    for (const typed of ['São Paulo', 'sao paulo']) {
      await page.getByLabel('City (optional)').fill(typed)
      await calculate.click()
      await expect.poll(() => page.getByTestId('place').textContent()).toBe('São Paulo, Brazil')
    }

    // An unknown place: 'Location not found' with suggestions that work when picked.
    await page.getByLabel('City (optional)').fill('Berln')
    await calculate.click()
    await page.getByText('Location not found').waitFor()
    await expect.poll(() => calculate.isEnabled()).toBe(true)
    await page.getByRole('button', { name: 'Berlin, Germany' }).click()
    await expect.poll(() => page.getByTestId('place').textContent()).toBe('Berlin, Germany')
    expect(problems, problems.join('\n')).toEqual([])
    await page.context().close()
  })

  it('custom mode: a name of several places shows the biggest and lets the user pick another', async () => {
    const { page, problems } = await open({ geolocation: BERLIN, permissions: ['geolocation'] })
    await page.getByRole('button', { name: 'Custom Mode' }).click()
    const calculate = page.getByRole('button', { name: 'Calculate LST' })
    await page.getByLabel('Date and time (optional)').fill('2024-06-21T05:14')
    for (const [typed, place] of [
      ['Wien', 'Vienna, Austria'],
      ['東京', 'Tokyo, Japan'],
    ] as const) {
      await page.getByLabel('City (optional)').fill(typed)
      await calculate.click()
      await expect.poll(() => page.getByTestId('place').textContent()).toBe(place)
    }

    await page.getByLabel('City (optional)').fill('Roma')
    await calculate.click()
    await expect.poll(() => page.getByTestId('place').textContent()).toBe('Rome, Lazio, Italy')
    const choice = page.getByTestId('place-choice')
    expect(await choice.textContent()).toContain('Several places are called “Roma”')
    const rome = choice.getByRole('button', { name: 'Rome, Lazio, Italy' })
    expect(await rome.getAttribute('aria-pressed')).toBe('true')
    const romeLst = await degreesShown(page)

    await choice.getByRole('button', { name: 'Roma, Texas, United States' }).click()
    await expect
      .poll(() => page.getByTestId('place').textContent())
      .toBe('Roma, Texas, United States')
    expect(await rome.getAttribute('aria-pressed')).toBe('false')
    // 111° of longitude apart: about 7.4 h of sidereal time.
    expect(((romeLst - (await degreesShown(page)) + 360) % 360) / 15).toBeCloseTo(7.4, 1)
    expect(problems, problems.join('\n')).toEqual([])
    await page.context().close()
  })

  it('denied location: the prompt stays and custom mode still works', async () => {
    const { page, problems } = await open({ geolocation: BERLIN, permissions: [] })
    const prompt = page.getByText('Location access needed for auto mode')
    await prompt.waitFor()
    await page.getByRole('button', { name: 'Allow Location Access' }).click()
    await expect
      .poll(() => page.getByRole('button', { name: 'Allow Location Access' }).isEnabled())
      .toBe(true)
    expect(await prompt.isVisible()).toBe(true)
    expect(await page.getByTestId('lst-formatted').count()).toBe(0)

    await page.getByRole('button', { name: 'Custom Mode' }).click()
    await page.getByLabel('City (optional)').fill('Berlin')
    await page.getByRole('button', { name: 'Calculate LST' }).click()
    await expect.poll(() => page.getByTestId('place').textContent()).toBe('Berlin, Germany')
    expect(await page.getByTestId('latitude').textContent()).toBe('52.5244')

    await page.getByRole('button', { name: 'Auto Mode' }).click()
    await prompt.waitFor()
    expect(problems, problems.join('\n')).toEqual([])
    await page.context().close()
  })

  it('explains sidereal time and the claim behind it, expanding on Read More', async () => {
    const { page, problems } = await open({ geolocation: BERLIN, permissions: ['geolocation'] })
    await page.getByRole('heading', { name: 'What is sidereal time?' }).waitFor()
    const claim = page.getByText('1,468 free-response')
    expect(await claim.isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Read More' }).click()
    await expect.poll(() => claim.isVisible()).toBe(true)
    expect(await page.getByText('post-hoc finding in pooled data').isVisible()).toBe(true)
    expect(await page.getByText('Journal of Scientific Exploration').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Show Less' }).click()
    await expect.poll(() => claim.isVisible()).toBe(false)
    expect(problems, problems.join('\n')).toEqual([])
    await page.context().close()
  })
})
