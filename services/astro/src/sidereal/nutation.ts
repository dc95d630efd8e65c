import { LUNI_SOLAR_TERMS, PLANETARY_TERMS } from './nutation-series.ts'

/** Constants and conventions of the IAU SOFA library, so results can be compared with it. */
export const TWO_PI = 2 * Math.PI
/** Arcseconds to radians. */
export const ARCSEC = Math.PI / (180 * 3600)
/** Arcseconds in a full circle. */
const TURN_ARCSEC = 1_296_000
/** The reference epoch J2000.0 as a Julian date, and days per Julian century. */
export const J2000 = 2_451_545
export const DAYS_PER_CENTURY = 36_525
/** 0.1 microarcsecond to radians: the unit of the nutation series. */
const UNIT = ARCSEC / 1e7

/** A Julian date kept in two parts (as SOFA does) so the fraction of a day keeps its precision. */
export interface JulianDate {
  readonly jd1: number
  readonly jd2: number
}

/** C's fmod: the remainder keeps the sign of the dividend. */
const fmod = (x: number, y: number) => x % y

/** Julian centuries of TT since J2000.0. */
export const centuriesSinceJ2000 = ({ jd1, jd2 }: JulianDate) =>
  (jd1 - J2000 + jd2) / DAYS_PER_CENTURY

/**
 * Fundamental arguments of the IERS Conventions 2003 (Simon et al. 1994, Souchay et al. 1999),
 * radians, for t in Julian centuries of TT since J2000.0.
 */
export const fundamental = {
  /** Mean anomaly of the Moon, l. */
  moonAnomaly: (t: number) =>
    fmod(
      485868.249036 + t * (1717915923.2178 + t * (31.8792 + t * (0.051635 + t * -0.0002447))),
      TURN_ARCSEC,
    ) * ARCSEC,
  /** Mean anomaly of the Sun, l'. */
  sunAnomaly: (t: number) =>
    fmod(
      1287104.793048 + t * (129596581.0481 + t * (-0.5532 + t * (0.000136 + t * -0.00001149))),
      TURN_ARCSEC,
    ) * ARCSEC,
  /** Mean longitude of the Moon minus that of its ascending node, F. */
  moonLatitude: (t: number) =>
    fmod(
      335779.526232 + t * (1739527262.8478 + t * (-12.7512 + t * (-0.001037 + t * 0.00000417))),
      TURN_ARCSEC,
    ) * ARCSEC,
  /** Mean elongation of the Moon from the Sun, D. */
  moonElongation: (t: number) =>
    fmod(
      1072260.703692 + t * (1602961601.209 + t * (-6.3706 + t * (0.006593 + t * -0.00003169))),
      TURN_ARCSEC,
    ) * ARCSEC,
  /** Mean longitude of the Moon's ascending node, Ω. */
  moonNode: (t: number) =>
    fmod(
      450160.398036 + t * (-6962890.5431 + t * (7.4722 + t * (0.007702 + t * -0.00005939))),
      TURN_ARCSEC,
    ) * ARCSEC,
  mercury: (t: number) => fmod(4.402608842 + 2608.7903141574 * t, TWO_PI),
  venus: (t: number) => fmod(3.176146697 + 1021.3285546211 * t, TWO_PI),
  earth: (t: number) => fmod(1.753470314 + 628.3075849991 * t, TWO_PI),
  mars: (t: number) => fmod(6.203480913 + 334.06124267 * t, TWO_PI),
  jupiter: (t: number) => fmod(0.599546497 + 52.9690962641 * t, TWO_PI),
  saturn: (t: number) => fmod(0.874016757 + 21.329910496 * t, TWO_PI),
  uranus: (t: number) => fmod(5.481293872 + 7.4781598567 * t, TWO_PI),
  /** General accumulated precession in longitude, p_A. */
  precession: (t: number) => (0.02438175 + 0.00000538691 * t) * t,
}

export interface Nutation {
  /** Nutation in longitude, radians. */
  dpsi: number
  /** Nutation in obliquity, radians. */
  deps: number
}

/**
 * Nutation, IAU 2000A (MHB2000 luni-solar and planetary terms, without the free core nutation),
 * as SOFA's iauNut00a: the full 678 + 687 term series. `tt` is a TT Julian date.
 */
export function nutation2000A(tt: JulianDate): Nutation {
  const t = centuriesSinceJ2000(tt)

  // Luni-solar: IERS 2003 arguments, except l' and D, which MHB2000 takes from its own expressions.
  const el = fundamental.moonAnomaly(t)
  const elp =
    fmod(
      1287104.79305 + t * (129596581.0481 + t * (-0.5532 + t * (0.000136 + t * -0.00001149))),
      TURN_ARCSEC,
    ) * ARCSEC
  const f = fundamental.moonLatitude(t)
  const d =
    fmod(
      1072260.70369 + t * (1602961601.209 + t * (-6.3706 + t * (0.006593 + t * -0.00003169))),
      TURN_ARCSEC,
    ) * ARCSEC
  const om = fundamental.moonNode(t)

  let dp = 0
  let de = 0
  // Smallest terms first, as SOFA sums them, so rounding matches its results.
  for (let i = LUNI_SOLAR_TERMS.length - 11; i >= 0; i -= 11) {
    const c = (k: number) => LUNI_SOLAR_TERMS[i + k] ?? 0
    const arg = fmod(c(0) * el + c(1) * elp + c(2) * f + c(3) * d + c(4) * om, TWO_PI)
    const s = Math.sin(arg)
    const co = Math.cos(arg)
    dp += (c(5) + c(6) * t) * s + c(7) * co
    de += (c(8) + c(9) * t) * co + c(10) * s
  }
  const dpsiLuniSolar = dp * UNIT
  const depsLuniSolar = de * UNIT

  // Planetary: MHB2000's linear Delaunay arguments and Neptune, IERS 2003 for the rest.
  const args = [
    fmod(2.35555598 + 8328.6914269554 * t, TWO_PI),
    fmod(1.627905234 + 8433.466158131 * t, TWO_PI),
    fmod(5.198466741 + 7771.3771468121 * t, TWO_PI),
    fmod(2.1824392 - 33.757045 * t, TWO_PI),
    fundamental.mercury(t),
    fundamental.venus(t),
    fundamental.earth(t),
    fundamental.mars(t),
    fundamental.jupiter(t),
    fundamental.saturn(t),
    fundamental.uranus(t),
    fmod(5.321159 + 3.8127774 * t, TWO_PI),
    fundamental.precession(t),
  ]
  dp = 0
  de = 0
  for (let i = PLANETARY_TERMS.length - 17; i >= 0; i -= 17) {
    const c = (k: number) => PLANETARY_TERMS[i + k] ?? 0
    let arg = 0
    for (let k = 0; k < 13; k++) arg += c(k) * (args[k] ?? 0)
    arg = fmod(arg, TWO_PI)
    const s = Math.sin(arg)
    const co = Math.cos(arg)
    dp += c(13) * s + c(14) * co
    de += c(15) * s + c(16) * co
  }

  return { dpsi: dpsiLuniSolar + dp * UNIT, deps: depsLuniSolar + de * UNIT }
}

/**
 * IAU 2000A nutation adjusted to the IAU 2006 precession (as SOFA's iauNut06a): the J2 rate
 * and the 2006 obliquity scale the amplitudes slightly.
 */
export function nutation2006A(tt: JulianDate): Nutation {
  const t = centuriesSinceJ2000(tt)
  const fj2 = -2.7774e-6 * t
  const { dpsi, deps } = nutation2000A(tt)
  return { dpsi: dpsi + dpsi * (0.4697e-6 + fj2), deps: deps + deps * fj2 }
}

/** Mean obliquity of the ecliptic, IAU 2006 (as SOFA's iauObl06), radians. */
export function meanObliquity2006(tt: JulianDate): number {
  const t = centuriesSinceJ2000(tt)
  return (
    (84381.406 +
      t *
        (-46.836769 +
          t * (-0.0001831 + t * (0.0020034 + t * (-0.000000576 + t * -0.0000000434))))) *
    ARCSEC
  )
}
