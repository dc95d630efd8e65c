import { useCallback, useEffect, useRef, useState } from 'react'
import { OnsetRecorder, type MeasuredOnset } from '../../lib/audio/onset-recorder.ts'
import { PlaybackEngine, type PlaybackPlan } from '../../lib/audio/playback-engine.ts'
import type { SpeedKey } from '../../lib/audio/speeds.ts'
import recorderModuleUrl from '../../lib/audio/onset-recorder.worklet.ts?worker&url'

/** What the page exposes for measuring onsets when `window.__crvMeasureOnsets` is set. */
export type ScheduledClip = { clipId: string; start: number; duration: number }

declare global {
  interface Window {
    __crvMeasureOnsets?: boolean
    /** The onset self-check's planted fault: each clip this many ms late (measuring only). */
    __crvPlantLateMs?: number
    __crvOnsets?: MeasuredOnset[]
    __crvScheduled?: ScheduledClip[]
    __crvAudioContext?: AudioContext
  }
}

type Player = {
  isPlaying: boolean
  /** The word sounding now. */
  playingId: string | null
  play: (plan: PlaybackPlan) => void
  stop: () => void
  /** Clips are failing to load or start; the engine keeps retrying, slower and slower. */
  audioFailing: boolean
}

/**
 * The page's hold on the playback engine. The AudioContext is made on the first play, inside
 * the user's click or key press (browsers start audio only then), and lives as long as the page.
 */
export function useIdeogramPlayer(options: {
  speed: SpeedKey
  volume: number
  /** Once when clips start failing, not for every failed clip. */
  onAudioFailing: () => void
}): Player {
  const [isPlaying, setIsPlaying] = useState(false)
  const [audioFailing, setAudioFailing] = useState(false)
  const [playingId, setPlayingId] = useState<string | null>(null)
  const engine = useRef<Promise<PlaybackEngine> | null>(null)
  /** The engine once made: a press then plays it at once, before React renders the press. */
  const ready = useRef<PlaybackEngine | null>(null)
  const latest = useRef(options)
  useEffect(() => {
    latest.current = options
  })

  const ensureEngine = useCallback((): Promise<PlaybackEngine> => {
    if (engine.current) return engine.current
    const context = new AudioContext({ latencyHint: 'interactive' })
    const measure = window.__crvMeasureOnsets === true
    engine.current = (async () => {
      const recorder = measure ? await OnsetRecorder.create(context, recorderModuleUrl) : null
      const scheduled: ScheduledClip[] = []
      if (recorder) {
        window.__crvOnsets = recorder.onsets
        window.__crvScheduled = scheduled
        window.__crvAudioContext = context
      }
      const late = measure ? (window.__crvPlantLateMs ?? 0) : 0
      const created = new PlaybackEngine({
        context,
        ...(recorder ? { output: recorder.node } : {}),
        ...(late > 0 ? { plantedLateSeconds: late / 1000 } : {}),
        onScheduled: (clipId, start, buffer) => {
          recorder?.arm(clipId, start, buffer)
          if (recorder) scheduled.push({ clipId, start, duration: buffer.duration })
        },
        onWordChange: setPlayingId,
        onPlayingChange: (playing) => {
          if (!playing) recorder?.disarm()
          setIsPlaying(playing)
        },
        onFailingChange: (failing) => {
          setAudioFailing(failing)
          if (failing) latest.current.onAudioFailing()
        },
      })
      created.setVolume(latest.current.volume)
      created.setSpeed(latest.current.speed)
      ready.current = created
      return created
    })()
    return engine.current
  }, [])

  useEffect(() => {
    void engine.current?.then((e) => e.setVolume(options.volume))
  }, [options.volume])
  useEffect(() => {
    void engine.current?.then((e) => e.setSpeed(options.speed))
  }, [options.speed])

  useEffect(
    () => () => {
      void engine.current?.then((e) => {
        e.stop()
        void (e.context as AudioContext).close?.()
      })
    },
    [],
  )

  const play = useCallback(
    (plan: PlaybackPlan) => {
      // Played within the press: the engine reads the audio clock for the first clip's due time
      // before the render of the press (20-30 ms on the home page) delays it. The first press
      // makes the engine and plays when it is ready.
      if (ready.current) ready.current.play(plan)
      else void ensureEngine().then((e) => e.play(plan))
      setIsPlaying(true)
    },
    [ensureEngine],
  )
  const stop = useCallback(() => {
    setIsPlaying(false)
    void engine.current?.then((e) => e.stop())
  }, [])

  return { isPlaying, playingId, play, stop, audioFailing }
}
