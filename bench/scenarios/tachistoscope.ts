import { launch } from '../../test/browser/browser.ts'
import { ms, percentile } from '../lib.ts'
import type { Section } from '../lib.ts'
import { startApp } from './app.ts'
import { grainyJpeg } from '../../test/pictures.ts'

const ADMIN = '+15550009001'
const UPLOADS = 20
const FLASHES: [label: string, exposure: number | 'frame', count: number][] = [
  ['1 frame', 'frame', 40],
  ['100 ms', 100, 40],
  ['0.5 seconds', 500, 20],
  ['1 second', 1000, 10],
]

type FlashRecord = {
  exposureMs: number
  frameMs: number
  plannedFrames: number
  shownFrames: number
  shownMs: number
}

/**
 * The tachistoscope (DESIGN.md §7): how far each flash's time on screen is from the chosen
 * exposure, by the page's own frame timestamps in headless Chromium, and how long the server
 * takes to scale a 4000×3000 JPEG upload into 800×600.
 */
export async function tachistoscope(): Promise<Section> {
  const app = await startApp({ ADMIN_PHONES: ADMIN })
  const browser = await launch()
  try {
    // One sign-in for both: the browser context keeps the refresh cookie, uploads use the token.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.request.post(`${app.base}/api/auth/phone/start`, { data: { phone: ADMIN } })
    const outbox = (await (
      await context.request.get(
        `${app.base}/api/auth/dev/sms-outbox?phone=${encodeURIComponent(ADMIN)}`,
      )
    ).json()) as { code: string }[]
    const verified = await context.request.post(`${app.base}/api/auth/phone/verify`, {
      data: { phone: ADMIN, code: outbox.at(-1)?.code },
    })
    const { accessToken: token } = (await verified.json()) as { accessToken: string }
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

    const rows: string[] = []
    const page = await context.newPage()
    await page.goto(`${app.base}/tachistoscope`)
    const overlay = page.getByTestId('tachistoscope-overlay')
    const flashes = async () => Number((await overlay.getAttribute('data-flash-count')) ?? '0')
    let button = 'Get Picture'
    for (const [label, exposure, count] of FLASHES) {
      await page.getByRole('combobox', { name: 'Exposure Duration' }).click()
      await page.getByRole('option', { name: label, exact: true }).click()
      const records: FlashRecord[] = []
      for (let i = 0; i < count; i++) {
        const before = await flashes()
        await page.getByRole('button', { name: button }).click()
        button = 'Show Again'
        // Polling runs on the page's main thread: wait out the exposure before asking.
        await page.waitForTimeout((exposure === 'frame' ? 17 : exposure) + 50)
        while ((await flashes()) === before) await page.waitForTimeout(50)
        records.push(await page.evaluate<FlashRecord>('window.__tachistoscopeLast'))
      }
      const frameMs = records[0]?.frameMs ?? NaN
      const wanted = exposure === 'frame' ? frameMs : exposure
      const exact = records.filter((r) => r.shownFrames === r.plannedFrames).length
      const frameErrors = records.map((r) => Math.abs(r.shownFrames - r.plannedFrames))
      const msErrors = records.map((r) => Math.abs(r.shownMs - wanted)).sort((a, b) => a - b)
      rows.push(
        `| ${label} | ${records.length} | ${records[0]?.plannedFrames ?? '-'} | ${((100 * exact) / records.length).toFixed(1)} % | ${Math.max(...frameErrors)} | ${ms(percentile(msErrors, 50))} | ${ms(msErrors.at(-1) ?? NaN)} | ${ms(frameMs)} |`,
      )
    }

    return {
      markdown: [
        '## Tachistoscope',
        '',
        'Flashes in headless Chromium through the real page (`/tachistoscope`, picture fetched and decoded first, shown and hidden on animation frames); time on screen from the page’s own frame timestamps. Budget: shown duration equal to the chosen exposure in whole frames for ≥ 99% of flashes.',
        '',
        '| exposure | flashes | frames | in whole frames | max frame error | median error | max error | frame interval |',
        '|---|---:|---:|---:|---:|---:|---:|---:|',
        ...rows,
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
