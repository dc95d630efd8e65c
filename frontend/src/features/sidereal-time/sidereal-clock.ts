/** Sidereal seconds per SI second of UT: the Earth's rotation measured against the stars. */
export const SIDEREAL_RATE = 1.00273790935

const MS_PER_HOUR = 3_600_000

/** The window of the Spottiswoode (1997) finding: an hour either side of 13.5 h LST. */
export const WINDOW_START_HOURS = 12.5
export const WINDOW_END_HOURS = 14.5

/** Local sidereal time in degrees, `elapsedMs` of clock time after it was `lstDegrees`. */
export function advanceSidereal(lstDegrees: number, elapsedMs: number): number {
  const degrees = lstDegrees + (elapsedMs / MS_PER_HOUR) * 15 * SIDEREAL_RATE
  return ((degrees % 360) + 360) % 360
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Degrees of sidereal time as HH:MM:SS (truncated, so never 24:00:00). */
export function formatSidereal(degrees: number): string {
  const total = Math.floor((degrees / 15) * 3600 + 1e-6)
  return `${pad(Math.floor(total / 3600) % 24)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`
}

export interface SiderealWindow {
  /** True when the instant itself lies inside the window. */
  inside: boolean
  /** The next entry into the window after the instant (the current one's start is past). */
  enters: Date
  /** When the window containing the instant, or else the next one, ends. */
  leaves: Date
}

/** Clock time (ms) for the LST to advance `siderealHours`. */
const clockMsFor = (siderealHours: number) => (siderealHours / SIDEREAL_RATE) * MS_PER_HOUR

/** Sidereal hours to go from `from` forward to `to` on the 24 h circle, in [0, 24). */
const hoursAhead = (from: number, to: number) => (((to - from) % 24) + 24) % 24

/**
 * When a place whose LST is `lstDegrees` at `at` next enters and leaves 12.5–14.5 h LST.
 * Inside the window, `leaves` is the end of the current one and `enters` the next day's start.
 */
export function nextSiderealWindow(lstDegrees: number, at: Date): SiderealWindow {
  const hours = lstDegrees / 15
  const inside = hours >= WINDOW_START_HOURS && hours < WINDOW_END_HOURS
  const t = at.getTime()
  const enters = t + clockMsFor(hoursAhead(hours, WINDOW_START_HOURS) || 24)
  const leaves = inside
    ? t + clockMsFor(WINDOW_END_HOURS - hours)
    : enters + clockMsFor(WINDOW_END_HOURS - WINDOW_START_HOURS)
  return { inside, enters: new Date(enters), leaves: new Date(leaves) }
}

/** A typed `datetime-local` value read as local time, as a UTC ISO string; blank → undefined. */
export function localInputToUtcIso(value: string): string | undefined {
  if (value.trim() === '') return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}
