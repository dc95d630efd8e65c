// The tachistoscope judged by what reaches the screen: Chromium draws each frame when this test
// asks (screen-frames.ts), and every frame's pixels say whether the picture was up. The page's
// own bookkeeping is not consulted for the verdict.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Cookie } from 'playwright-core'
import { adminPhoneOf, signInByOutbox } from './accounts.ts'
import {
  FRAME_MS,
  flashesOnScreen,
  HIDE_ONE_FRAME_LATE,
  MAGENTA,
  ScreenFrames,
  uploadProbePicture,
} from './screen-frames.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
let token: string
/** The administrator's session (the refresh cookie), passed from one frame-driven browser to the next. */
let cookies: Cookie[]

const auth = () => ({ authorization: `Bearer ${token}` })

async function peopleImages(): Promise<{ id: string }[]> {
  const res = await fetch(`${base}/api/tachistoscope/images/list/people`, { headers: auth() })
  expect(res.status).toBe(200)
  return (await res.json()) as { id: string }[]
}

async function clearPeople() {
  for (const image of await peopleImages()) {
    const res = await fetch(`${base}/api/tachistoscope/images/${image.id}`, {
      method: 'DELETE',
      headers: auth(),
    })
    expect(res.status).toBe(204)
  }
}

/**
 * Opens the trainer until the page has measured the 60 Hz this harness plays. The page measures
 * the display once, as it opens; on a machine too busy to draw each frame within 1/60 s the
 * harness stamps frames by the clock, a slower display, and the page rightly plans fewer frames
 * (CI: 4 for 100 ms, a 40 Hz reading). That is a reading of the machine, not of the app, so it
 * is taken again, but only if enough frames really were drawn late for the reading: a page that
 * reads anything but 60 Hz from a screen that kept time fails here.
 */
async function openAt60Hz(screen: ScreenFrames) {
  const readings: string[] = []
  for (let attempt = 0; attempt < 5; attempt++) {
    screen.lateFrames = 0
    await screen.goto(base + '/tachistoscope')
    // The frame rate is said beside an exposure shorter than a second.
    await screen.page.getByRole('combobox', { name: 'Exposure Duration' }).click()
    await screen.page.getByRole('option', { name: '1 frame', exact: true }).click()
    const duration = screen.page.getByTestId('exposure-duration')
    await expect.poll(() => duration.innerText()).toMatch(/\d+ Hz\)/)
    const hz = /(\d+) Hz\)/.exec(await duration.innerText())?.[1]
    if (hz === '60') {
      if (readings.length > 0) console.info(`read again after ${readings.join('; ')}`)
      return
    }
    readings.push(`${hz} Hz with ${screen.lateFrames} frames drawn late`)
    // The page takes the median of 30 frames: at least 15 of them came late, or it misread.
    expect(
      screen.lateFrames,
      `the page read ${hz} Hz with only ${screen.lateFrames} frames drawn late`,
    ).toBeGreaterThanOrEqual(15)
  }
  throw new Error(`this machine never drew 60 Hz while the page measured: ${readings.join('; ')}`)
}

/** Flashes the People picture (one flat magenta picture) three times at each exposure. */
async function flashes(plant?: string) {
  const screen = await ScreenFrames.open()
  try {
    await screen.page.context().addCookies(cookies)
    if (plant) await screen.page.addInitScript(plant)
    const page = screen.page
    await openAt60Hz(screen)
    await page.getByRole('button', { name: 'People Pictures' }).click()
    await page.getByTestId('image-count').getByText('1').waitFor()
    const results = await flashesOnScreen(
      screen,
      ['1 frame', '100 ms', '0.5 seconds'].map((label) => ({ label, count: 3 })),
      MAGENTA,
    )
    expect(await page.evaluate('window.__plantedHideLate === true')).toBe(Boolean(plant))
    // Each refresh rotates the session cookie: the next browser takes the new one.
    cookies = await page.context().cookies()
    return results
  } finally {
    await screen.close()
  }
}

// Retried: on a box that draws below 60 Hz, a frame Chromium drew before the page's part of it
// was ready keeps the picture up one frame more now and then (CI: 28 on screen, 27 due, once in
// nine flashes). A fresh measurement settles it; a hide that is really late fails every try.
// 120 s a test: up to five openings (openAt60Hz) before the flashes, each about 8 s when loaded.
describe('tachistoscope, at the screen', { retry: 2, timeout: 120_000 }, () => {
  beforeAll(async () => {
    const screen = await ScreenFrames.open()
    try {
      token = await signInByOutbox(screen.page.context().request, base, adminPhone)
      cookies = await screen.page.context().cookies()
    } finally {
      await screen.close()
    }
    await clearPeople()
    expect(await uploadProbePicture(base, token)).toBe(201)
  })
  afterAll(() => clearPeople())

  it('keeps the picture on screen for exactly the chosen frames at 60 Hz', async () => {
    const results = await flashes()
    const frames = { '1 frame': 1, '100 ms': 6, '0.5 seconds': 30 } as Record<string, number>
    for (const { label, planned, onScreen, due } of results) {
      const wanted = frames[label]
      expect(planned, `${label}: frames the page planned`).toEqual([wanted, wanted, wanted])
      // Hidden in exactly the frame it was due in. On a machine that draws (with screenshots)
      // at 60 Hz, `due` is `planned`; a slower one stamps frames by the clock, as a display
      // that drops frames, and the page rightly hides by the time, not by the count.
      expect(onScreen, `${label}: frames on screen per flash`).toEqual(due)
    }
    console.info(
      `tachistoscope at the screen (${FRAME_MS.toFixed(2)} ms frames): ` +
        results
          .map(
            (r) =>
              `${r.label} ${r.onScreen.join('/')} of ${r.due.join('/')} due (${r.planned.join('/')} planned)`,
          )
          .join('; '),
    )
  })

  it('sees a picture hidden one frame late (planted), which the page itself cannot', async () => {
    const results = await flashes(HIDE_ONE_FRAME_LATE)
    for (const { label, onScreen, due } of results) {
      // At least a frame longer than due, every flash. Not exactly one: on a busy machine a frame
      // Chromium drew before the page's part of it was ready keeps the picture up one more
      // (CI read 7/7/7 against 5/6/6 due); the test above holds the app to exactly `due`.
      const late = onScreen.map((n, i) => n - (due[i] ?? n))
      expect(
        late.every((n) => n >= 1),
        `${label}: frames late per flash: ${late.join('/')}`,
      ).toBe(true)
    }
    // The page's own frame timestamps miss it: they call flashes exact that were not. Not every
    // one: where this machine draws slower than 60 Hz the page's timestamps see some frames
    // long (a run here read 6/10/7 for 6 planned), so at least one of the nine.
    const record = results.map(
      (r) => `${r.label} ${r.pageSays.join('/')} of ${r.planned.join('/')}`,
    )
    const missed = results.flatMap((r) => r.pageSays.filter((n, i) => n === r.planned[i]))
    expect(
      missed.length,
      `flashes the page's record calls exact: ${record.join('; ')}`,
    ).toBeGreaterThanOrEqual(1)
  })
})
