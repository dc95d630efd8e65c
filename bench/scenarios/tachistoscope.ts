import { signInByOutbox } from '../../test/browser/accounts.ts'
import { launchBrowser } from '../../test/kit/browser.ts'
import {
  FRAME_MS,
  flashesOnScreen,
  HIDE_ONE_FRAME_LATE,
  MAGENTA,
  ScreenFrames,
  uploadProbePicture,
} from '../../test/browser/screen-frames.ts'
import type { FlashesOnScreen } from '../../test/browser/screen-frames.ts'
import { ms, percentile } from '../lib.ts'
import type { Section } from '../lib.ts'
import { startApp } from './app.ts'
import { grainyJpeg } from '../../test/pictures.ts'

const ADMIN = '+15550009001'
const UPLOADS = 20
const FLASHES = [
  { label: '1 frame', count: 40 },
  { label: '100 ms', count: 40 },
  { label: '0.5 seconds', count: 20 },
  { label: '1 second', count: 10 },
]

/**
 * The tachistoscope (DESIGN.md §7): how many frames each flash stays on screen, read from the
 * pixels of every frame Chromium draws (test/browser/screen-frames.ts), against the frames the
 * exposure asks for; the same with a planted fault (the hide one frame late) to show the figure
 * can fail; and how long the server takes to scale a 4000×3000 JPEG upload into 800×600.
 */
export async function tachistoscope(): Promise<Section> {
  const app = await startApp({ ADMIN_PHONES: ADMIN })
  const browser = await launchBrowser()
  try {
    // One sign-in for both: the browser context keeps the refresh cookie, uploads use the token.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const token = await signInByOutbox(context.request, app.base, ADMIN)
    const photo = await grainyJpeg(4000, 3000)

    const upload = async (fit: boolean) => {
      const form = new FormData()
      form.append('category', 'random')
      form.append('fit', String(fit))
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'big.jpg')
      const started = performance.now()
      const res = await fetch(`${app.base}/api/tachistoscope/images/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      const elapsed = performance.now() - started
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`)
      return elapsed
    }
    await upload(true)
    const fitted: number[] = []
    const originals: number[] = []
    for (let i = 0; i < UPLOADS; i++) fitted.push(await upload(true))
    for (let i = 0; i < UPLOADS; i++) originals.push(await upload(false))
    fitted.sort((a, b) => a - b)
    originals.sort((a, b) => a - b)

    // One flat magenta picture in People, alone there (the starter set's People pictures go
    // first): lit frames are those with magenta at the centre.
    const people = await fetch(`${app.base}/api/tachistoscope/images/list/people`, {
      headers: { authorization: `Bearer ${token}` },
    })
    for (const { id } of (await people.json()) as { id: string }[]) {
      const gone = await fetch(`${app.base}/api/tachistoscope/images/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      })
      if (gone.status !== 204) throw new Error(`starter picture not deleted: ${gone.status}`)
    }
    const uploaded = await uploadProbePicture(app.base, token)
    if (uploaded !== 201) throw new Error(`magenta upload failed: ${uploaded}`)
    // The session moves from browser to browser: each refresh rotates the cookie.
    let cookies = await context.cookies()
    const measure = async (exposures: typeof FLASHES, plant?: string) => {
      const screen = await ScreenFrames.open()
      try {
        await screen.page.context().addCookies(cookies)
        if (plant) await screen.page.addInitScript(plant)
        await screen.goto(`${app.base}/tachistoscope`)
        await screen.page.getByRole('button', { name: 'People Pictures' }).click()
        await screen.page.getByTestId('image-count').getByText('1').waitFor()
        const results = await flashesOnScreen(screen, exposures, MAGENTA)
        cookies = await screen.page.context().cookies()
        return results
      } finally {
        await screen.close()
      }
    }
    const row = (r: FlashesOnScreen, note = '') => {
      const errors = r.onScreen.map((n, i) => Math.abs(n - (r.planned[i] ?? NaN)))
      const exact = errors.filter((e) => e === 0).length
      const pageExact = r.pageSays.filter((n, i) => n === r.planned[i]).length
      const pct = (n: number) => `${((100 * n) / r.onScreen.length).toFixed(1)} %`
      return `| ${r.label}${note} | ${r.onScreen.length} | ${r.planned[0] ?? '-'} | ${pct(exact)} | ${Math.max(...errors)} | ${ms(
        percentile(
          [...errors].sort((a, b) => a - b),
          50,
        ) * FRAME_MS,
      )} | ${pct(pageExact)} |`
    }
    const rows = (await measure(FLASHES)).map((r) => row(r))
    const planted = (await measure([{ label: '100 ms', count: 10 }], HIDE_ONE_FRAME_LATE)).map(
      (r) => row(r, ' — **self-check: hide planted one frame late**'),
    )

    return {
      markdown: [
        '## Tachistoscope',
        '',
        `Flashes through the real page (\`/tachistoscope\`, signed in as an administrator, People holding one flat magenta picture) in Debian's chromium-headless-shell, whose every frame this bench draws (\`HeadlessExperimental.beginFrame\`, ${FRAME_MS.toFixed(2)} ms apart) and reads back: a frame is lit when its centre pixel is magenta. Frames on screen are counted from those pixels, not from the page's own timestamps (its record is shown beside them). Budget: on screen for exactly the chosen exposure in whole frames for ≥ 99 % of flashes. The self-check hides the overlay one frame after the flash engine asks (its style wrapped before the app loads): the screen count must show +1 while the page's record still reads exact.`,
        '',
        '| exposure | flashes | frames asked | exact on screen | max frame error | median error | page’s record exact |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...rows,
        ...planted,
        '',
        `Uploads of a 4000×3000 JPEG (${(photo.length / 2 ** 20).toFixed(1)} MiB) through the gateway as multipart, one at a time, ${UPLOADS} each, wall time per upload:`,
        '',
        '| upload | p50 | p99 |',
        '|---|---:|---:|',
        `| \`fit: true\` (scaled to 800×600, JPEG quality 70) | ${ms(percentile(fitted, 50))} | ${ms(percentile(fitted, 99))} |`,
        `| original kept (re-encoded only when it has metadata; here stored as sent) | ${ms(percentile(originals, 50))} | ${ms(percentile(originals, 99))} |`,
        '',
      ].join('\n'),
    }
  } finally {
    await browser.close()
    await app.close()
  }
}
