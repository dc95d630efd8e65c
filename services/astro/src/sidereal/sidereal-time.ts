import {
  ARCSEC,
  centuriesSinceJ2000,
  fundamental,
  J2000,
  meanObliquity2006,
  nutation2006A,
  TWO_PI,
} from './nutation.ts'
import type { JulianDate } from './nutation.ts'
import { taiMinusUtc } from './leap-seconds.ts'

/** MJD zero as a Julian date; the first part of every date built here (as SOFA's examples). */
export const MJD_ZERO = 2_400_000.5
const MJD_OF_UNIX_EPOCH = 40_587
const MS_PER_DAY = 86_400_000
/** TT − TAI, seconds. */
const TT_MINUS_TAI = 32.184

/** Radians into [0, 2π). */
export function normalizeAngle(a: number): number {
  const w = a % TWO_PI
  return w < 0 ? w + TWO_PI : w
}

/** Radians into (−π, π]. */
const normalizeSigned = (a: number) => {
  const w = a % TWO_PI
  if (Math.abs(w) >= Math.PI) return w - Math.sign(a) * TWO_PI
  return w
}

/** Earth rotation angle (IAU 2000), radians, for a UT1 Julian date (as SOFA's iauEra00). */
export function earthRotationAngle({ jd1, jd2 }: JulianDate): number {
  const [d1, d2] = jd1 < jd2 ? [jd1, jd2] : [jd2, jd1]
  const t = d1 + (d2 - J2000)
  // Fractional part of T (days), kept apart from the integer part for precision.
  const f = (d1 % 1) + (d2 % 1)
  return normalizeAngle(TWO_PI * (f + 0.779057273264 + 0.00273781191135448 * t))
}

/** Greenwich mean sidereal time, IAU 2006 (as SOFA's iauGmst06), radians. */
export function gmst2006(ut1: JulianDate, tt: JulianDate): number {
  const t = centuriesSinceJ2000(tt)
  const polynomial =
    0.014506 +
    t * (4612.156534 + t * (1.3915817 + t * (-0.00000044 + t * (-0.000029956 + t * -0.0000000368))))
  return normalizeAngle(earthRotationAngle(ut1) + polynomial * ARCSEC)
}

/**
 * Complementary terms of the equation of the equinoxes (IERS Conventions 2003, as SOFA's
 * iauEect00), radians. Multipliers of l, l', F, D, Ω, L_Ve, L_E, p_A; sine and cosine in arcsec.
 */
const EECT_T0: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 1, 0, 0, 0, 2640.96e-6, -0.39e-6],
  [0, 0, 0, 0, 2, 0, 0, 0, 63.52e-6, -0.02e-6],
  [0, 0, 2, -2, 3, 0, 0, 0, 11.75e-6, 0.01e-6],
  [0, 0, 2, -2, 1, 0, 0, 0, 11.21e-6, 0.01e-6],
  [0, 0, 2, -2, 2, 0, 0, 0, -4.55e-6, 0],
  [0, 0, 2, 0, 3, 0, 0, 0, 2.02e-6, 0],
  [0, 0, 2, 0, 1, 0, 0, 0, 1.98e-6, 0],
  [0, 0, 0, 0, 3, 0, 0, 0, -1.72e-6, 0],
  [0, 1, 0, 0, 1, 0, 0, 0, -1.41e-6, -0.01e-6],
  [0, 1, 0, 0, -1, 0, 0, 0, -1.26e-6, -0.01e-6],
  [1, 0, 0, 0, -1, 0, 0, 0, -0.63e-6, 0],
  [1, 0, 0, 0, 1, 0, 0, 0, -0.63e-6, 0],
  [0, 1, 2, -2, 3, 0, 0, 0, 0.46e-6, 0],
  [0, 1, 2, -2, 1, 0, 0, 0, 0.45e-6, 0],
  [0, 0, 4, -4, 4, 0, 0, 0, 0.36e-6, 0],
  [0, 0, 1, -1, 1, -8, 12, 0, -0.24e-6, -0.12e-6],
  [0, 0, 2, 0, 0, 0, 0, 0, 0.32e-6, 0],
  [0, 0, 2, 0, 2, 0, 0, 0, 0.28e-6, 0],
  [1, 0, 2, 0, 3, 0, 0, 0, 0.27e-6, 0],
  [1, 0, 2, 0, 1, 0, 0, 0, 0.26e-6, 0],
  [0, 0, 2, -2, 0, 0, 0, 0, -0.21e-6, 0],
  [0, 1, -2, 2, -3, 0, 0, 0, 0.19e-6, 0],
  [0, 1, -2, 2, -1, 0, 0, 0, 0.18e-6, 0],
  [0, 0, 0, 0, 0, 8, -13, -1, -0.1e-6, 0.05e-6],
  [0, 0, 0, 2, 0, 0, 0, 0, 0.15e-6, 0],
  [2, 0, -2, 0, -1, 0, 0, 0, -0.14e-6, 0],
  [1, 0, 0, -2, 1, 0, 0, 0, 0.14e-6, 0],
  [0, 1, 2, -2, 2, 0, 0, 0, -0.14e-6, 0],
  [1, 0, 0, -2, -1, 0, 0, 0, 0.14e-6, 0],
  [0, 0, 4, -2, 4, 0, 0, 0, 0.13e-6, 0],
  [0, 0, 2, -2, 4, 0, 0, 0, -0.11e-6, 0],
  [1, 0, -2, 0, -3, 0, 0, 0, 0.11e-6, 0],
  [1, 0, -2, 0, -1, 0, 0, 0, 0.11e-6, 0],
]
/** The one term of order t: −0.87 µas·t·sin Ω. */
const EECT_T1_SIN_OMEGA = -0.87e-6

export function equinoxComplementaryTerms(tt: JulianDate): number {
  const t = centuriesSinceJ2000(tt)
  const fa = [
    fundamental.moonAnomaly(t),
    fundamental.sunAnomaly(t),
    fundamental.moonLatitude(t),
    fundamental.moonElongation(t),
    fundamental.moonNode(t),
    fundamental.venus(t),
    fundamental.earth(t),
    fundamental.precession(t),
  ]
  let s0 = 0
  for (let i = EECT_T0.length - 1; i >= 0; i--) {
    const term = EECT_T0[i] ?? []
    let a = 0
    for (let j = 0; j < 8; j++) a += (term[j] ?? 0) * (fa[j] ?? 0)
    s0 += (term[8] ?? 0) * Math.sin(a) + (term[9] ?? 0) * Math.cos(a)
  }
  const s1 = EECT_T1_SIN_OMEGA * Math.sin(fa[4] ?? 0)
  return (s0 + s1 * t) * ARCSEC
}

/**
 * Equation of the equinoxes, IAU 2006/2000A, radians: Δψ cos ε_A plus the complementary terms.
 * SOFA's iauEe06a reaches the same quantity through the CIO (GST − GMST); the two agree to
 * about a microarcsecond, a million times finer than a millisecond of time.
 */
export function equationOfEquinoxes2006A(tt: JulianDate): number {
  const { dpsi } = nutation2006A(tt)
  return normalizeSigned(dpsi * Math.cos(meanObliquity2006(tt)) + equinoxComplementaryTerms(tt))
}

/** Greenwich apparent sidereal time, IAU 2006/2000A (as SOFA's iauGst06a), radians. */
export function gast2006A(ut1: JulianDate, tt: JulianDate): number {
  return normalizeAngle(gmst2006(ut1, tt) + equationOfEquinoxes2006A(tt))
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The UTC calendar date of an instant, for the leap-second table. */
function utcParts(instant: Date) {
  return {
    year: instant.getUTCFullYear(),
    month: instant.getUTCMonth() + 1,
    day: instant.getUTCDate(),
    dayFraction:
      (instant.getTime() -
        Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate())) /
      MS_PER_DAY,
  }
}

/** UTC and TT of an instant as two-part Julian dates (MJD zero + MJD). */
export function timeScales(instant: Date): { utc: JulianDate; tt: JulianDate } {
  const mjd = instant.getTime() / MS_PER_DAY + MJD_OF_UNIX_EPOCH
  const { year, month, day, dayFraction } = utcParts(instant)
  const ttMinusUtc = taiMinusUtc(year, month, day, dayFraction) + TT_MINUS_TAI
  return {
    utc: { jd1: MJD_ZERO, jd2: mjd },
    tt: { jd1: MJD_ZERO, jd2: mjd + ttMinusUtc / 86_400 },
  }
}

export interface SiderealTimes {
  /** Greenwich mean and apparent, local mean and apparent sidereal time, degrees in [0, 360). */
  gmstDegrees: number
  gastDegrees: number
  lmstDegrees: number
  lastDegrees: number
}

const RAD_TO_DEG = 180 / Math.PI

/** Degrees into [0, 360), never 360 itself after rounding. */
function degrees(radians: number): number {
  const d = normalizeAngle(radians) * RAD_TO_DEG
  return d >= 360 ? d - 360 : d
}

/**
 * Sidereal times of an instant at a longitude (degrees, east positive). UT1 is taken as UTC
 * (|UT1 − UTC| < 0.9 s, i.e. under 14″ of rotation); TT follows UTC through the leap seconds.
 */
export function siderealTimes(instant: Date, longitudeDegrees: number): SiderealTimes {
  const { utc, tt } = timeScales(instant)
  const gmst = gmst2006(utc, tt)
  const gast = normalizeAngle(gmst + equationOfEquinoxes2006A(tt))
  const east = longitudeDegrees / RAD_TO_DEG
  return {
    gmstDegrees: degrees(gmst),
    gastDegrees: degrees(gast),
    lmstDegrees: degrees(gmst + east),
    lastDegrees: degrees(gast + east),
  }
}

/** Sidereal degrees as HH:MM:SS of sidereal time (truncated, so never 24:00:00). */
export function formatSiderealTime(degreesValue: number): string {
  // The nudge keeps an exact value such as 45° = 03:00:00 from flooring to 02:59:59.
  const totalSeconds = Math.floor((degreesValue / 15) * 3600 + 1e-6)
  const h = Math.floor(totalSeconds / 3600) % 24
  const m = Math.floor(totalSeconds / 60) % 60
  const s = totalSeconds % 60
  return `${pad(h)}:${pad(m)}:${pad(s)}`
}
