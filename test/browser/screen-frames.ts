import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { chromium } from 'playwright-core'
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import sharp from 'sharp'

/** Debian's chromium-headless-shell: the headless mode that lets a client drive its frames. */
export const HEADLESS_SHELL =
  process.env.CHROMIUM_HEADLESS_SHELL ?? '/usr/bin/chromium-headless-shell'

/** The display this harness plays: 60 Hz, every frame exactly on time. */
export const FRAME_MS = 1000 / 60

type Rgb = [number, number, number]

/** The flat colour of the probe picture: a frame is lit when its centre shows it. */
export const MAGENTA: Rgb = [255, 0, 255]

/** Uploads one flat magenta 800×600 picture into People; returns the upload's status. */
export async function uploadProbePicture(base: string, token: string): Promise<number> {
  const picture = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 255, g: 0, b: 255 } },
  })
    .png()
    .toBuffer()
  const form = new FormData()
  form.append('category', 'people')
  form.append('fit', 'false')
  form.append('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'magenta.png')
  const res = await fetch(`${base}/api/tachistoscope/images/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return res.status
}

/** One drawn frame as it left the compositor: was the probe colour at the probe point? */
export interface ScreenFrame {
  /** The frame's timestamp as the page's requestAnimationFrame saw it. */
  time: number
  lit: boolean
}

/**
 * A page whose frames this process draws, one `HeadlessExperimental.beginFrame` at a time
 * (Chromium in `--deterministic-mode`, the page's target created with
 * `enableBeginFrameControl`, so each call paints everything that frame's callbacks changed). A
 * frame is drawn as soon as the previous one is done, stamped 1/60 s after it (never behind the
 * clock), so on a machine that keeps up the page sees a perfect 60 Hz display; on one too busy
 * to, the page's updates miss frames as they would on a real display, and the screen shows it.
 * While `recording`, every frame's pixels come back from the compositor and the
 * probe point's colour is read from them: what a person would have seen, frame by frame.
 */
export class ScreenFrames {
  readonly page: Page
  private readonly process: ChildProcess
  private readonly browser: Browser
  private readonly cdp: CDPSession
  private readonly profile: string
  private ticks: number
  /** Frames stamped by the clock, not 1/60 s after the last: drawn late, as a slower display's. */
  lateFrames = 0
  private running = true
  private paused = false
  private inFlight: Promise<unknown> | null = null
  private failure: Error | null = null
  private pumping: Promise<void>
  private recording: {
    probe: { x: number; y: number }
    colour: Rgb
    frames: { time: number; png: string }[]
  } | null = null

  private constructor(
    process: ChildProcess,
    browser: Browser,
    page: Page,
    cdp: CDPSession,
    profile: string,
  ) {
    this.process = process
    this.browser = browser
    this.page = page
    this.cdp = cdp
    this.profile = profile
    this.ticks = monotonicMs()
    this.pumping = this.pump()
  }

  static async open(viewport = { width: 640, height: 480 }): Promise<ScreenFrames> {
    const profile = await mkdtemp(join(tmpdir(), 'crv-frames-'))
    const child = spawn(
      HEADLESS_SHELL,
      [
        '--no-sandbox',
        '--disable-gpu',
        // --enable-begin-frame-control, --run-all-compositor-stages-before-draw and what keeps
        // frames whole under them (no threaded animation or scrolling, no deferred image decode,
        // no new-content timeout); without these a frame now and then never finished.
        '--deterministic-mode',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        `--window-size=${viewport.width},${viewport.height}`,
        'about:blank',
      ],
      // A group of its own: Debian's chromium-headless-shell is a shell script that runs the
      // browser as its child, so killing the script alone left browsers running.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    )
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream })
        const timer = setTimeout(() => reject(new Error(`${HEADLESS_SHELL} did not start`)), 15_000)
        lines.on('line', (line) => {
          const found = /DevTools listening on (ws:\/\/\S+)/.exec(line)
          if (found?.[1]) {
            clearTimeout(timer)
            resolve(found[1])
          }
        })
        child.once('exit', (code) => reject(new Error(`${HEADLESS_SHELL} exited (${code})`)))
      })
      const browser = await chromium.connectOverCDP(endpoint)
      const context = browser.contexts()[0] as BrowserContext
      const created = context.waitForEvent('page', {
        predicate: (p) => p.url() === 'about:blank#frames',
      })
      const session = await browser.newBrowserCDPSession()
      await session.send('Target.createTarget', {
        url: 'about:blank#frames',
        enableBeginFrameControl: true,
        width: viewport.width,
        height: viewport.height,
      })
      const page = await created
      const cdp = await context.newCDPSession(page)
      const frames = new ScreenFrames(child, browser, page, cdp, profile)
      await page.setViewportSize(viewport)
      return frames
    } catch (err) {
      killGroup(child)
      await rm(profile, { recursive: true, force: true })
      throw err
    }
  }

  private async pump(): Promise<void> {
    while (this.running) {
      if (this.paused) {
        // The first frame after a pause comes when it comes, not late.
        this.ticks = monotonicMs() - FRAME_MS
        await new Promise((resolve) => setTimeout(resolve, 5))
        continue
      }
      // Never stamped in the past: Chromium gives a frame until its time plus one interval to
      // finish the page's part of it and draws without it after that, so a stamp behind the
      // clock (after a pause, or frames drawn slower than 60 Hz) would skip the page's updates.
      const now = monotonicMs()
      if (now > this.ticks + FRAME_MS) this.lateFrames += 1
      this.ticks = Math.max(this.ticks + FRAME_MS, now)
      const recording = this.recording
      const frame = this.cdp.send('HeadlessExperimental.beginFrame', {
        frameTimeTicks: this.ticks,
        interval: FRAME_MS,
        ...(recording ? { screenshot: { format: 'png', optimizeForSpeed: true } } : {}),
      }) as Promise<{ screenshotData?: string }>
      this.inFlight = frame
      let result: { screenshotData?: string }
      try {
        result = await frame
      } catch (err) {
        if (!this.running) return
        this.failure = err as Error
        return
      } finally {
        this.inFlight = null
      }
      // Read after the recording: decoding each PNG here held the next frame back, so frames
      // were drawn slower than 60 Hz and stamped by the clock instead (fewer, longer frames).
      if (recording && result.screenshotData)
        recording.frames.push({ time: this.ticks, png: result.screenshotData })
      // Let the page's tasks (network, timers, input) run between frames.
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }

  /**
   * Loads `url` with no frame asked for meanwhile: a frame begun while the page moves to another
   * renderer process is never finished, and Chromium refuses every later one ('Another frame
   * is pending').
   */
  async goto(url: string): Promise<void> {
    this.paused = true
    try {
      await this.inFlight?.catch(() => {})
      await this.page.goto(url, { waitUntil: 'load' })
    } finally {
      this.paused = false
    }
  }

  /** Throws if Chromium stopped drawing this page's frames. */
  check(): void {
    if (this.failure) throw new Error(`frames stopped: ${this.failure.message}`)
  }

  /** From now on, read every frame at `probe` (CSS pixels) for `colour`. */
  record(probe: { x: number; y: number }, colour: Rgb): void {
    this.recording = { probe, colour, frames: [] }
  }

  /** Stops reading frames; returns what was read. */
  async stop(): Promise<ScreenFrame[]> {
    this.check()
    const recording = this.recording
    this.recording = null
    if (!recording) return []
    return Promise.all(
      recording.frames.map(async ({ time, png }) => ({
        time,
        lit: await isColourAt(Buffer.from(png, 'base64'), recording),
      })),
    )
  }

  async close(): Promise<void> {
    this.running = false
    await this.pumping.catch(() => {})
    await this.browser.close().catch(() => {})
    killGroup(this.process)
    await rm(this.profile, { recursive: true, force: true })
  }
}

/** Ends the browser with every process it started (its own process group). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL')
  } catch {
    child.kill('SIGKILL')
  }
}

/** Chromium's TimeTicks clock (CLOCK_MONOTONIC, as Node's hrtime), in ms. */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6

async function isColourAt(
  png: Buffer,
  { probe, colour }: { probe: { x: number; y: number }; colour: Rgb },
): Promise<boolean> {
  const { data, info } = await sharp(png)
    .extract({ left: Math.round(probe.x), top: Math.round(probe.y), width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  if (info.channels < 3) return false
  return colour.every((c, i) => Math.abs((data[i] ?? -999) - c) <= 24)
}

export interface FlashesOnScreen {
  label: string
  /** Frames the page counted each flash as (its `plannedFrames`). */
  planned: number[]
  /** Frames the picture was on screen, by the frames' pixels, each flash. */
  onScreen: number[]
  /** Frames the page's own record says each flash lasted. */
  pageSays: number[]
  /**
   * Frames each flash was due to stay, given the frames this harness drew: from the first lit
   * frame to the first whose stamp is at least (planned − ½) frames later. Equal to `planned`
   * when every frame came 1/60 s after the last; fewer when the machine could not draw (with
   * screenshots) at 60 Hz and frames were stamped by the clock, as a real display drops frames.
   */
  due: number[]
}

/**
 * On the tachistoscope page (category chosen, picture of one flat `colour`), flashes `count`
 * times at each exposure, reading every frame at the screen's centre.
 */
export async function flashesOnScreen(
  screen: ScreenFrames,
  exposures: { label: string; count: number }[],
  colour: Rgb,
): Promise<FlashesOnScreen[]> {
  const page = screen.page
  const overlay = page.getByTestId('tachistoscope-overlay')
  const flashes = async () => Number((await overlay.getAttribute('data-flash-count')) ?? '0')
  const size = page.viewportSize() ?? { width: 640, height: 480 }
  const probe = { x: size.width / 2, y: size.height / 2 }
  const results: FlashesOnScreen[] = []
  for (const { label, count } of exposures) {
    await page.getByRole('combobox', { name: 'Exposure Duration' }).click()
    await page.getByRole('option', { name: label, exact: true }).click()
    const result: FlashesOnScreen = { label, planned: [], onScreen: [], pageSays: [], due: [] }
    for (let i = 0; i < count; i++) {
      const before = await flashes()
      screen.record(probe, colour)
      const again = page.getByRole('button', { name: 'Show Again' })
      await (
        (await again.count()) > 0 ? again : page.getByRole('button', { name: 'Get Picture' })
      ).click()
      const deadline = Date.now() + 20_000
      while ((await flashes()) === before) {
        if (Date.now() > deadline) throw new Error(`${label}: no flash within 20 s`)
        await page.waitForTimeout(20)
      }
      // The hide reaches the screen in the frame after the engine's last callback.
      await page.waitForTimeout(100)
      const frames = await screen.stop()
      const runs = litRuns(frames)
      const record = await page.evaluate<{ plannedFrames: number; shownFrames: number }>(
        'window.__tachistoscopeLast',
      )
      result.planned.push(record.plannedFrames)
      result.due.push(dueFrames(frames, record.plannedFrames))
      // Two runs would be a picture that blinked: counted as what a person saw, all of it.
      result.onScreen.push(runs.reduce((a, b) => a + b, 0))
      result.pageSays.push(record.shownFrames)
    }
    results.push(result)
  }
  return results
}

/** See `FlashesOnScreen.due`. */
export function dueFrames(frames: ScreenFrame[], planned: number): number {
  const shown = frames.findIndex((f) => f.lit)
  const start = frames[shown]
  if (!start) return planned
  const end = frames.findIndex(
    (f, i) => i > shown && f.time - start.time >= (planned - 0.5) * FRAME_MS,
  )
  return end < 0 ? planned : end - shown
}

/** The runs of lit frames in a recording: how many frames each showing lasted on screen. */
export function litRuns(frames: ScreenFrame[]): number[] {
  const runs: number[] = []
  let run = 0
  for (const frame of frames) {
    if (frame.lit) run += 1
    else if (run > 0) {
      runs.push(run)
      run = 0
    }
  }
  if (run > 0) runs.push(run)
  return runs
}

/**
 * A planted fault for self-checks: the tachistoscope's overlay is hidden one frame after the
 * flash engine hides it (the overlay's inline style is wrapped before the app loads), while the
 * engine's own record still says the exposure was exact. Sets `window.__plantedHideLate` once
 * it has wrapped a hide, so a check can tell the plant took.
 */
export const HIDE_ONE_FRAME_LATE = `(() => {
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'style')
  if (!own || !own.get) throw new Error('no style getter to wrap')
  Object.defineProperty(HTMLElement.prototype, 'style', {
    ...own,
    get() {
      const style = own.get.call(this)
      if (this.dataset.testid !== 'tachistoscope-overlay') return style
      return new Proxy(style, {
        set(target, key, value) {
          if (key === 'visibility' && value === 'hidden') {
            window.__plantedHideLate = true
            requestAnimationFrame(() => { target.visibility = value })
          } else target[key] = value
          return true
        },
        get(target, key) {
          const value = target[key]
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
    },
  })
})()`
