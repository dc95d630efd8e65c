// Ideogram loop timing (DESIGN.md §7): the onset of each clip, found by an AudioWorklet on the
// AudioContext sample clock, against the end of the previous clip plus the pause. Headless
// Chromium plays the real page; `window.__crvMeasureOnsets` routes the sound through the
// recorder (NOTES.md, 'Measuring audio onsets').
import type { Page } from 'playwright-core'
import { launchBrowser } from '../../test/kit/browser.ts'
import { percentile } from '../lib.ts'
import type { Section } from '../lib.ts'
import { startApp } from './app.ts'

export type OnsetRun = {
  gapMs: number
  clips: number
  /**
   * |heard onset − due onset| per clip after the first, in ms. Due is the loop's plan, not the
   * engine's bookkeeping: the previous clip's due start plus its length plus the pause, chained
   * from the first clip; a clip the engine started late is late here, however it recorded it.
   */
  errorsMs: number[]
  /** How far each scheduled start was from end of previous + pause, in ms (scheduling only). */
  scheduleErrorsMs: number[]
  clipIds: string[]
}

type Onset = {
  clipId: string
  intendedStart: number
  onsetInClip: number
  heardAt: number | null
  errorMs: number | null
}
type Scheduled = { clipId: string; start: number; duration: number }

/** The speed buttons of the three measured pauses. */
export const measuredSpeeds = [
  { gapMs: 0, label: 'Instant' },
  { gapMs: 100, label: '0.1s Extreme' },
  { gapMs: 1000, label: '1s Fast' },
] as const

/** Must run before the page's scripts: the recorder is set up with the first play. */
export async function enableOnsetMeasurement(page: Page, plantLateMs = 0): Promise<void> {
  await page.addInitScript((late) => {
    const w = globalThis as unknown as { __crvMeasureOnsets?: boolean; __crvPlantLateMs?: number }
    w.__crvMeasureOnsets = true
    // The self-check's fault: every clip this much late.
    if (late > 0) w.__crvPlantLateMs = late
  }, plantLateMs)
}

export const gestaltCard = (page: Page, id: string) => page.locator(`[data-gestalt="${id}"]`)
/** The card's own button (its first pressable; the 1x/2x/3x buttons follow it). */
export const gestaltToggle = (page: Page, id: string) =>
  gestaltCard(page, id).locator('[aria-pressed]').first()

export async function selectGestalts(page: Page, ids: string[]): Promise<void> {
  for (const id of ids) {
    const toggle = gestaltToggle(page, id)
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click()
  }
}

export async function chooseSpeed(page: Page, label: string): Promise<void> {
  await page
    .getByRole('region', { name: 'Playback controls' })
    .getByRole('button', { name: label, exact: true })
    .click()
}

const controls = (page: Page) => page.getByRole('region', { name: 'Playback controls' })

export async function startPlaying(page: Page): Promise<void> {
  await controls(page).getByRole('button', { name: 'Play', exact: true }).click()
  await controls(page).getByRole('button', { name: 'Pause', exact: true }).waitFor()
}

export async function stopPlaying(page: Page): Promise<void> {
  await controls(page).getByRole('button', { name: 'Pause', exact: true }).click()
  await controls(page).getByRole('button', { name: 'Play', exact: true }).waitFor()
}

export const scheduledCount = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { __crvScheduled?: unknown[] }).__crvScheduled?.length ?? 0,
  )

/**
 * Plays the selected gestalts at one pause until `clips` clips have been heard, then stops and
 * returns each clip's onset error.
 */
export async function measureOnsets(
  page: Page,
  speed: { gapMs: number; label: string },
  clips: number,
): Promise<OnsetRun> {
  await chooseSpeed(page, speed.label)
  const from = await scheduledCount(page)
  await startPlaying(page)
  await page.waitForFunction(
    ({ from, clips }) => {
      const onsets =
        (globalThis as unknown as { __crvOnsets?: { heardAt: number | null }[] }).__crvOnsets ?? []
      return onsets.slice(from, from + clips).filter((o) => o.heardAt !== null).length >= clips
    },
    { from, clips },
    { timeout: clips * 3_000 + 10_000, polling: 250 },
  )
  await stopPlaying(page)
  const { onsets, scheduled } = await page.evaluate(() => {
    const w = globalThis as unknown as { __crvOnsets?: Onset[]; __crvScheduled?: Scheduled[] }
    return { onsets: w.__crvOnsets ?? [], scheduled: w.__crvScheduled ?? [] }
  })
  const run = onsets.slice(from, from + clips)
  const ours = scheduled.slice(from, from + clips)
  const scheduleErrorsMs = ours.slice(1).map((clip, i) => {
    const previous = ours[i]
    if (!previous) return Number.NaN
    return (clip.start - (previous.start + previous.duration + speed.gapMs / 1000)) * 1000
  })
  // The due chain: the first clip's start, then each previous due start + length + pause.
  const errorsMs: number[] = []
  let due = run[0]?.intendedStart ?? 0
  for (let i = 1; i < run.length; i++) {
    const previous = ours[i - 1]
    const onset = run[i]
    if (!previous || !onset) continue
    due += previous.duration + speed.gapMs / 1000
    errorsMs.push(
      onset.heardAt === null
        ? Number.POSITIVE_INFINITY
        : Math.abs(onset.heardAt - (due + onset.onsetInClip)) * 1000,
    )
  }
  return {
    gapMs: speed.gapMs,
    clips: run.length,
    errorsMs,
    scheduleErrorsMs,
    clipIds: run.map((o) => o.clipId),
  }
}

/** `npm run bench`: 50 clips at 0, 100 and 1000 ms pauses in headless Chromium. */
export async function ideogram(): Promise<Section> {
  const app = await startApp()
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    await enableOnsetMeasurement(page)
    await page.goto(`${app.base}/`)
    await selectGestalts(page, ['land', 'space', 'energy'])
    const runs: OnsetRun[] = []
    for (const speed of measuredSpeeds) runs.push(await measureOnsets(page, speed, 50))
    // Self-check: the same page with every clip 50 ms late must read late.
    const faulty = await browser.newPage()
    await enableOnsetMeasurement(faulty, 50)
    await faulty.goto(`${app.base}/`)
    await selectGestalts(faulty, ['land', 'space', 'energy'])
    const planted = await measureOnsets(faulty, { gapMs: 100, label: '0.1s Extreme' }, 10)
    await faulty.close()
    const f = (n: number) => n.toFixed(3)
    return {
      markdown: [
        '## Ideogram loop: clip onset error',
        '',
        "Headless Chromium plays the home page with three gestalts selected. An AudioWorklet between the loop and the speakers finds, on the AudioContext sample clock, the first sample above 0.01 after each clip is due; the clip's own lead-in is subtracted, and the result is compared with when the clip was due by the loop's plan: the previous clip's due start plus its length plus the pause, chained from the first clip (not the engine's own start time). 50 clips per pause. Budget: p99 ≤ 1 ms at every speed.",
        '',
        '| pause | clips | p50 | p99 | max |',
        '|---:|---:|---:|---:|---:|',
        ...runs.map(
          (r) =>
            `| ${r.gapMs} ms | ${r.clips} | ${f(percentile(r.errorsMs, 50))} ms | ${f(percentile(r.errorsMs, 99))} ms | ${f(Math.max(...r.errorsMs))} ms |`,
        ),
        `| self-check: every clip planted 50 ms late, 100 ms pause | ${planted.clips} | ${f(percentile(planted.errorsMs, 50))} ms | ${f(percentile(planted.errorsMs, 99))} ms | ${f(Math.max(...planted.errorsMs))} ms |`,
        '',
        `Self-check: must read ≥ 50 ms at the median: ${percentile(planted.errorsMs, 50) >= 50 ? 'yes' : '**no**'}.`,
        '',
      ].join('\n'),
    }
  } finally {
    await browser.close()
    await app.close()
  }
}
