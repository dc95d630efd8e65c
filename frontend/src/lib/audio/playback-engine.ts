import { ClipCache } from './clip-cache.ts'
import { pickNextWord } from './pick.ts'
import { delaySeconds, type SpeedKey } from './speeds.ts'
import type {
  AudioBufferLike,
  AudioBufferSourceNodeLike,
  AudioContextLike,
  AudioNodeLike,
  GainNodeLike,
} from './web-audio.ts'

/** A word as the engine plays it: where its clip is and how often it should come up. */
export type EngineWord = { id: string; url: string; probabilityLevel: number }

export type PlaybackPlan =
  | { mode: 'normal'; words: readonly EngineWord[]; speed: SpeedKey }
  /** Joined ideogram: the words once, in order, without a pause, then stop. */
  | { mode: 'joined'; sequence: readonly EngineWord[] }

export interface Timers {
  setInterval(callback: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export interface PlaybackEngineOptions {
  context: AudioContextLike
  clips?: ClipCache
  /** Where the volume stage feeds into; the context's speakers unless a recorder sits between. */
  output?: AudioNodeLike
  random?: () => number
  timers?: Timers
  /** How often the scheduler looks ahead. */
  tickMs?: number
  /** How far ahead of the audio clock clips are handed to the audio thread. */
  lookAheadSeconds?: number
  /** How long after Play (or after a late decode) a clip is due: see `defaultStartLeadSeconds`. */
  startLeadSeconds?: number
  /**
   * A fault planted by the onset measurement's self-check (never set otherwise): every clip
   * starts this much after it is due, so the measurement must report it.
   */
  plantedLateSeconds?: number
  /** Each clip as it is scheduled: its word, the context time it starts at and its audio. */
  onScheduled?: (clipId: string, startTime: number, buffer: AudioBufferLike) => void
  /** The word sounding now (null between words), for the page to highlight. */
  onWordChange?: (clipId: string | null) => void
  /** Playing or not; `false` also when a joined sequence has finished. */
  onPlayingChange?: (playing: boolean) => void
  onClipError?: (clipId: string, error: unknown) => void
  /** True when clips start failing (the page shows 'Audio Error'), false once one plays again. */
  onFailingChange?: (failing: boolean) => void
}

/** A failed clip is skipped and the next one tried this much later (spec §9). */
export const retryDelaySeconds = 0.5
/** When every word has failed in a row, the wait doubles up to this (offline, server down). */
export const maxRetryDelaySeconds = 4

/**
 * The wait after the `failures`-th failure in a row among `words` words: 500 ms while some word
 * may still work, then doubling, so a dead network gets a request every few seconds, not a storm.
 */
export function retryDelayAfter(failures: number, words: number): number {
  const beyond = failures - Math.max(1, words)
  return beyond < 0
    ? retryDelaySeconds
    : Math.min(maxRetryDelaySeconds, retryDelaySeconds * 2 ** (beyond + 1))
}
export const defaultTickMs = 25
export const defaultLookAheadSeconds = 1
/**
 * The first clip after Play is due this long after the audio clock's reading, not at it. A
 * `start(t)` whose `t` has passed by the time the audio thread receives it plays late by whole
 * render quanta (128 frames each), and so does every clip chained after it: CI's browser test
 * heard the first clip 512 frames (11.6 ms) late on a busy machine. 100 ms is beyond any stall
 * seen there and still feels immediate after a press.
 */
export const defaultStartLeadSeconds = 0.1

/**
 * The first clip is due the start lead after the press, read on the audio clock before anything
 * else the press does (rendering the playing state took 20-32 ms in the bench, and every clip
 * of the loop came that much late). When that time is closer than this to the clock after the
 * clips are ready (a first press fetches them), it is due the start lead after then instead.
 */
export const minimumLeadSeconds = 0.05

type Scheduled = { id: string; source: AudioBufferSourceNodeLike; start: number; end: number }
type Upcoming = { word: EngineWord; due: number; buffer: AudioBufferLike | null }

const browserTimers: Timers = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
}

/**
 * The ideogram loop on the Web Audio clock. Clips are decoded once and started with
 * `start(t)` at the exact context time they are due (end of the previous clip plus the pause),
 * handed over a little ahead by a short timer, so a 0 ms pause is gapless and timer jitter
 * never reaches the sound.
 */
export class PlaybackEngine {
  readonly context: AudioContextLike
  private readonly clips: ClipCache
  private readonly gain: GainNodeLike
  private readonly random: () => number
  private readonly timers: Timers
  private readonly tickMs: number
  private readonly lookAhead: number
  private readonly startLead: number
  private readonly options: PlaybackEngineOptions

  private plan: PlaybackPlan | null = null
  private speed: SpeedKey = 'medium'
  private session = 0
  private timer: unknown = null
  private scheduled: Scheduled[] = []
  private upcoming: Upcoming | null = null
  private sequenceIndex = 0
  private finishAt: number | null = null
  private sounding: string | null = null
  /** After a failure: what to try next, when it is due, and not to fetch before `fetchAt`. */
  private retry: { lastId: string; due: number; fetchAt: number } | null = null
  private failures = 0

  constructor(options: PlaybackEngineOptions) {
    this.options = options
    this.context = options.context
    this.clips = options.clips ?? new ClipCache(options.context)
    this.random = options.random ?? Math.random
    this.timers = options.timers ?? browserTimers
    this.tickMs = options.tickMs ?? defaultTickMs
    this.lookAhead = options.lookAheadSeconds ?? defaultLookAheadSeconds
    this.startLead = options.startLeadSeconds ?? defaultStartLeadSeconds
    this.gain = this.context.createGain()
    this.gain.connect(options.output ?? this.context.destination)
  }

  get playing(): boolean {
    return this.plan !== null
  }

  /** Volume 0–100 (spec §9), applied at once, also to clips already scheduled. */
  setVolume(percent: number): void {
    const value = Math.max(0, Math.min(100, percent)) / 100
    this.gain.gain.value = value
    this.gain.gain.setValueAtTime(value, this.context.currentTime)
  }

  /** The pause after the word now scheduled onwards. */
  setSpeed(speed: SpeedKey): void {
    this.speed = speed
    if (this.plan?.mode === 'normal') this.plan = { ...this.plan, speed }
  }

  /** Fetches and decodes clips ahead of playing them. */
  preload(words: readonly EngineWord[]): void {
    for (const word of words) this.clips.load(word.url).catch(() => {})
  }

  /** Starts the loop (or the joined sequence); call it from the user's click or key press. */
  play(plan: PlaybackPlan): void {
    this.halt()
    const words = plan.mode === 'normal' ? plan.words : plan.sequence
    if (words.length === 0) return
    const pressedAt = this.context.currentTime
    if (this.context.state === 'suspended') void this.context.resume()
    this.plan = plan
    if (plan.mode === 'normal') this.speed = plan.speed
    this.session += 1
    this.sequenceIndex = 0
    this.finishAt = null
    const session = this.session
    this.options.onPlayingChange?.(true)
    // Every clip of the plan decoded first (or failed), so none can be late for want of it.
    void Promise.allSettled(words.map((word) => this.clips.load(word.url))).then(() => {
      if (session !== this.session) return
      const first = plan.mode === 'normal' ? pickNextWord(plan.words, null, this.random) : words[0]
      const now = this.context.currentTime
      const due = pressedAt + this.startLead
      if (first) this.prepare(first, due - now >= minimumLeadSeconds ? due : now + this.startLead)
      this.timer = this.timers.setInterval(() => this.tick(), this.tickMs)
    })
  }

  stop(): void {
    if (!this.plan) return
    this.halt()
    this.options.onPlayingChange?.(false)
  }

  private halt(): void {
    this.session += 1
    if (this.timer !== null) this.timers.clearInterval(this.timer)
    this.timer = null
    for (const clip of this.scheduled) {
      clip.source.onended = null
      try {
        clip.source.stop()
      } catch {
        // Already stopped.
      }
      clip.source.disconnect()
    }
    this.scheduled = []
    this.upcoming = null
    this.plan = null
    this.finishAt = null
    this.retry = null
    this.setFailures(0)
    this.setSounding(null)
  }

  /** Picks up the next word's clip; the scheduler starts it once it is decoded and due. */
  private prepare(word: EngineWord, due: number): void {
    const upcoming: Upcoming = { word, due, buffer: null }
    this.upcoming = upcoming
    const session = this.session
    this.clips.load(word.url).then(
      (buffer) => {
        if (session !== this.session || this.upcoming !== upcoming) return
        upcoming.buffer = buffer
        this.tick()
      },
      (error: unknown) => {
        if (session !== this.session || this.upcoming !== upcoming) return
        this.skip(word, Math.max(due, this.context.currentTime), error)
      },
    )
  }

  /**
   * A clip that failed: the next word is due 500 ms later and fetched no sooner than that in real
   * time. Fetching at once while only the due time moved on sent thousands of requests a second
   * when every clip failed, and left the loop seconds behind once the network came back.
   */
  private skip(word: EngineWord, at: number, error: unknown): void {
    this.options.onClipError?.(word.id, error)
    this.setFailures(this.failures + 1)
    const plan = this.plan
    const words = plan ? (plan.mode === 'normal' ? plan.words.length : plan.sequence.length) : 1
    const delay = retryDelayAfter(this.failures, words)
    const now = this.context.currentTime
    const due = Math.max(at, now) + delay
    this.upcoming = null
    this.retry = { lastId: word.id, due, fetchAt: Math.max(now + delay, due - this.lookAhead) }
  }

  private setFailures(failures: number): void {
    const was = this.failures > 0
    this.failures = failures
    if (was !== failures > 0) this.options.onFailingChange?.(failures > 0)
  }

  /** Chooses what follows `lastId`, due `pause` seconds after `end`. */
  private advance(lastId: string, end: number, pause: number): void {
    const plan = this.plan
    if (!plan) return
    if (plan.mode === 'joined') {
      this.sequenceIndex += 1
      const next = plan.sequence[this.sequenceIndex]
      if (next) this.prepare(next, end)
      else {
        this.upcoming = null
        this.finishAt = end
      }
      return
    }
    const next = pickNextWord(plan.words, lastId, this.random)
    if (next) this.prepare(next, end + pause)
  }

  private tick(): void {
    if (!this.plan) return
    const now = this.context.currentTime
    const retry = this.retry
    if (retry && now >= retry.fetchAt) {
      this.retry = null
      this.advance(retry.lastId, retry.due, 0)
    }
    let upcoming = this.upcoming
    while (upcoming?.buffer && upcoming.due < now + this.lookAhead) {
      this.schedule(upcoming, upcoming.buffer, now)
      if (this.upcoming === upcoming) break
      upcoming = this.upcoming
    }
    this.scheduled = this.scheduled.filter((clip) => clip.end > now)
    const sounding = this.scheduled.find((clip) => clip.start <= now && now < clip.end)
    this.setSounding(sounding?.id ?? null)
    if (this.finishAt !== null && now >= this.finishAt) this.stop()
  }

  private schedule(upcoming: Upcoming, buffer: AudioBufferLike, now: number): void {
    const { word } = upcoming
    // Late only if the clip was not decoded in time; then as soon as the audio thread can have it.
    const onTime = upcoming.due >= now ? upcoming.due : now + this.startLead
    const start = onTime + (this.options.plantedLateSeconds ?? 0)
    let source: AudioBufferSourceNodeLike
    try {
      source = this.context.createBufferSource()
      source.buffer = buffer
      source.connect(this.gain)
      source.start(start)
    } catch (error) {
      this.skip(word, start, error)
      return
    }
    const end = start + buffer.duration
    const clip: Scheduled = { id: word.id, source, start, end }
    source.onended = () => source.disconnect()
    this.scheduled.push(clip)
    this.setFailures(0)
    this.options.onScheduled?.(word.id, start, buffer)
    const pause = this.plan?.mode === 'normal' ? delaySeconds(this.speed, this.random) : 0
    this.advance(word.id, end, pause)
  }

  private setSounding(id: string | null): void {
    if (this.sounding === id) return
    this.sounding = id
    this.options.onWordChange?.(id)
  }
}
