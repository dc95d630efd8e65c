// The tachistoscope's timing, free of React: the picture is fetched and decoded before the
// exposure starts, and shown and hidden on animation frames, counting the exposure in frames of
// the measured refresh rate. A change made in a frame callback reaches the screen with that
// frame, so a picture shown in frame n and hidden in frame n + k was on screen for k frames.

import i18next from 'i18next'

/** The browser's frame clock (requestAnimationFrame), replaceable in tests. */
export interface FrameClock {
  request(callback: (time: number) => void): number
  cancel(handle: number): void
}

export const browserFrameClock: FrameClock = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
}

/** What one flash did, from the page's own frame timestamps. */
export interface FlashRecord {
  /** The chosen exposure in ms (one frame interval for '1 frame'). */
  exposureMs: number
  /** The measured frame interval. */
  frameMs: number
  /** Frames the exposure was counted as. */
  plannedFrames: number
  /** Frames the picture was on screen (hiddenAt - shownAt in frame intervals). */
  shownFrames: number
  /** How long it was on screen by the frame timestamps. */
  shownMs: number
  shownAt: number
  hiddenAt: number
  /** Every frame timestamp from the show to the hide, inclusive. */
  frameTimes: number[]
  /** True when the exposure was ended early (Escape). */
  aborted: boolean
}

/** How many frames an exposure lasts: the nearest whole number, at least one. */
export function framesFor(exposureMs: number, frameMs: number): number {
  return Math.max(1, Math.round(exposureMs / frameMs))
}

/**
 * The display's frame interval, from `samples` consecutive frame timestamps (the median
 * interval, so one late frame does not skew it).
 */
export function measureFrameInterval(clock: FrameClock, samples = 30): Promise<number> {
  return new Promise((resolve) => {
    const times: number[] = []
    const tick = (time: number) => {
      times.push(time)
      if (times.length <= samples) {
        clock.request(tick)
        return
      }
      const intervals = times
        .slice(1)
        .map((t, i) => t - (times[i] ?? t))
        .filter((d) => d > 0)
        .sort((a, b) => a - b)
      resolve(intervals[Math.floor(intervals.length / 2)] ?? 1000 / 60)
    }
    clock.request(tick)
  })
}

export interface FlashOptions {
  clock: FrameClock
  frameMs: number
  /** Frames to show the picture for (see `framesFor`). */
  frames: number
  exposureMs: number
  show(): void
  hide(): void
  /** Ends the exposure at the next frame. */
  signal?: AbortSignal
}

/**
 * Shows the picture in one frame and hides it in the frame `frames` intervals later. Frames are
 * counted from timestamps, not callbacks, so a dropped frame does not lengthen the exposure.
 */
export function flash(options: FlashOptions): Promise<FlashRecord> {
  const { clock, frameMs, frames, signal } = options
  return new Promise((resolve) => {
    const frameTimes: number[] = []
    let shownAt = 0
    const finish = (time: number, aborted: boolean) => {
      options.hide()
      const shownMs = time - shownAt
      resolve({
        exposureMs: options.exposureMs,
        frameMs,
        plannedFrames: frames,
        shownFrames: Math.round(shownMs / frameMs),
        shownMs,
        shownAt,
        hiddenAt: time,
        frameTimes,
        aborted,
      })
    }
    const onFrame = (time: number) => {
      frameTimes.push(time)
      // Half a frame of slack: timestamps jitter by a fraction of a millisecond.
      if (time - shownAt >= (frames - 0.5) * frameMs) finish(time, false)
      else if (signal?.aborted) finish(time, true)
      else clock.request(onFrame)
    }
    clock.request((time) => {
      shownAt = time
      frameTimes.push(time)
      options.show()
      clock.request(onFrame)
    })
  })
}

/**
 * Fetches a picture, decodes it (`img.decode()`) and draws it, scaled to fit, into `canvas` at
 * the screen's pixel size, all while the canvas is hidden: showing it later costs no network,
 * decoding, scaling or layout, only putting ready pixels on screen (an <img> of a 4000×3000
 * photo is scaled down during the paint that shows it, which made that frame late here).
 */
export async function preparePicture(
  canvas: HTMLCanvasElement,
  url: string,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch(url, signal ? { signal } : {})
  if (!response.ok)
    throw new Error(
      i18next.t('tachistoscope:trainer.pictureLoadFailed', { status: String(response.status) }),
    )
  const objectUrl = URL.createObjectURL(await response.blob())
  try {
    const img = new Image()
    img.src = objectUrl
    await img.decode()
    const ratio = window.devicePixelRatio || 1
    const width = Math.round(canvas.clientWidth * ratio)
    const height = Math.round(canvas.clientHeight * ratio)
    canvas.width = width
    canvas.height = height
    const context = canvas.getContext('2d')
    if (!context) throw new Error(i18next.t('tachistoscope:trainer.cannotDraw'))
    // Fit inside the screen; a small picture keeps its size, as an <img> would.
    const scale = Math.min(ratio, width / img.naturalWidth, height / img.naturalHeight)
    const w = Math.round(img.naturalWidth * scale)
    const h = Math.round(img.naturalHeight * scale)
    context.fillStyle = '#000'
    context.fillRect(0, 0, width, height)
    context.imageSmoothingQuality = 'high'
    context.drawImage(img, Math.round((width - w) / 2), Math.round((height - h) / 2), w, h)
  } finally {
    URL.revokeObjectURL(objectUrl)
  }
}
