import i18next from 'i18next'
import { useCallback, useEffect, useRef, useState } from 'react'
import { track } from '../../lib/analytics/index.ts'
import type { TachistoscopeImage } from '../../lib/api/generated.ts'
import type { Exposure, ImageCategory } from './exposures.ts'
import {
  browserFrameClock,
  flash,
  framesFor,
  measureFrameInterval,
  preparePicture,
  type FlashRecord,
} from './flash-engine.ts'

declare global {
  interface Window {
    /** The last flash's frame record, read by the browser test and the bench. */
    __tachistoscopeLast?: FlashRecord
  }
}

export type TrainerPhase = 'idle' | 'loading' | 'showing'

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))

/**
 * Runs flashes: measures the display's frame interval once, loads, decodes and draws the picture
 * into the overlay's canvas while it is hidden, then shows and hides the overlay on animation
 * frames.
 * The overlay is changed directly (not through React state) so nothing stands between the frame
 * callback and the screen.
 */
export function useFlashTrainer() {
  const overlayRef = useRef<HTMLDivElement | null>(null)
  const canvasRef = useRef<HTMLCanvasElement | null>(null)
  const frameMsRef = useRef<number | null>(null)
  /** The picture drawn on the canvas, and for which screen size. */
  const loadedRef = useRef<string | null>(null)
  const abortRef = useRef<AbortController | null>(null)
  const [phase, setPhase] = useState<TrainerPhase>('idle')
  const [frameMs, setFrameMs] = useState<number | null>(null)
  const [current, setCurrent] = useState<TachistoscopeImage | null>(null)
  const [lastFlash, setLastFlash] = useState<FlashRecord | null>(null)

  const measure = useCallback(async () => {
    if (frameMsRef.current !== null) return frameMsRef.current
    const measured = await measureFrameInterval(browserFrameClock)
    frameMsRef.current = measured
    setFrameMs(measured)
    return measured
  }, [])

  useEffect(() => {
    void measure()
    return () => abortRef.current?.abort()
  }, [measure])

  // Escape ends a long exposure early.
  useEffect(() => {
    if (phase !== 'showing') return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') abortRef.current?.abort()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [phase])

  const run = useCallback(
    async (
      image: TachistoscopeImage,
      exposure: Exposure,
      category: ImageCategory,
      again: boolean,
    ): Promise<FlashRecord> => {
      const overlay = overlayRef.current
      const canvas = canvasRef.current
      if (!overlay || !canvas) throw new Error(i18next.t('tachistoscope:trainer.notReady'))
      setPhase('loading')
      setCurrent(image)
      try {
        const interval = await measure()
        const drawn = `${image.id}@${window.innerWidth}x${window.innerHeight}`
        if (loadedRef.current !== drawn) {
          loadedRef.current = null
          await preparePicture(canvas, image.dataUrl)
          loadedRef.current = drawn
          overlay.dataset.pictureId = image.id
        }
        const exposureMs = exposure.ms === 'frame' ? interval : exposure.ms
        track(again ? 'tachistoscope_show_again' : 'tachistoscope_start', {
          category,
          exposureMs: Math.round(exposureMs),
        })
        const controller = new AbortController()
        abortRef.current = controller
        setPhase('showing')
        // Let React draw the new state first, so no render lands inside the exposure.
        await nextFrame()
        await nextFrame()
        const record = await flash({
          clock: browserFrameClock,
          frameMs: interval,
          frames: framesFor(exposureMs, interval),
          exposureMs,
          signal: controller.signal,
          show: () => {
            overlay.style.visibility = 'visible'
          },
          hide: () => {
            overlay.style.visibility = 'hidden'
          },
        })
        window.__tachistoscopeLast = record
        overlay.dataset.flashCount = String(Number(overlay.dataset.flashCount ?? '0') + 1)
        track('tachistoscope_complete', {
          category,
          exposureMs: Math.round(exposureMs),
          frames: record.shownFrames,
          shownMs: Math.round(record.shownMs),
          aborted: record.aborted,
        })
        setLastFlash(record)
        return record
      } finally {
        overlay.style.visibility = 'hidden'
        abortRef.current = null
        setPhase('idle')
      }
    },
    [measure],
  )

  return { overlayRef, canvasRef, phase, frameMs, current, lastFlash, run }
}
