// The tachistoscope judged by what reaches the screen: Chromium draws each frame when this test
// asks (screen-frames.ts), and every frame's pixels say whether the picture was up. The page's
// own bookkeeping is not consulted for the verdict.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Cookie } from 'playwright-core'
import { adminPhone, signInByApi } from './accounts.ts'
import {
  FRAME_MS,
  flashesOnScreen,
  HIDE_ONE_FRAME_LATE,
  MAGENTA,
  ScreenFrames,
  uploadProbePicture,
} from './screen-frames.ts'

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

/** Flashes the People picture (one flat magenta picture) three times at each exposure. */
async function flashes(plant?: string) {
  const screen = await ScreenFrames.open()
  try {
    await screen.page.context().addCookies(cookies)
    if (plant) await screen.page.addInitScript(plant)
    const page = screen.page
    await screen.goto(base + '/tachistoscope')
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

describe('tachistoscope, at the screen', () => {
  beforeAll(async () => {
    const screen = await ScreenFrames.open()
    try {
      token = await signInByApi(screen.page.context().request, base, adminPhone)
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
    for (const { label, planned, onScreen, pageSays, due } of results) {
      expect(onScreen, `${label}: frames on screen per flash`).toEqual(due.map((n) => n + 1))
      // The page's own frame timestamps miss it: they call flashes exact that were not (one
      // of three once read a frame long too on a busy machine, so not every flash is asserted).
      const missed = pageSays.filter((n, i) => n === planned[i]).length
      expect(missed, `${label}: flashes the page's record calls exact`).toBeGreaterThanOrEqual(1)
    }
  })
})
