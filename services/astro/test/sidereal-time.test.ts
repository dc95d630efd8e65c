import { describe, expect, it } from 'vitest'
import { taiMinusUtc } from '../src/sidereal/leap-seconds.ts'
import { meanObliquity2006, nutation2000A, nutation2006A } from '../src/sidereal/nutation.ts'
import {
  earthRotationAngle,
  equationOfEquinoxes2006A,
  equinoxComplementaryTerms,
  formatSiderealTime,
  gast2006A,
  gmst2006,
  siderealTimes,
  timeScales,
} from '../src/sidereal/sidereal-time.ts'

/** One millisecond of time as an angle: radians and degrees. */
const MS_RAD = (2 * Math.PI) / 86_400_000
const MS_DEG = 360 / 86_400_000
const RAD_TO_DEG = 180 / Math.PI
/** SOFA prints its results to 19 digits; kept as printed, read as the nearest double. */
const published = (printed: string) => Number(printed)
const mjd = (day: number) => ({ jd1: 2_400_000.5, jd2: day })

/** Signed difference of two angles in degrees, wrapped to (−180, 180]. */
const angleDiff = (a: number, b: number) => {
  const d = (((a - b) % 360) + 540) % 360
  return d - 180
}

describe('the IAU SOFA documentation examples', () => {
  // The published results of the SOFA test program (t_sofa_c.c) for 2006 January 1 (MJD 53736):
  // each routine's example, reproduced here to far better than 1 ms of time.
  it('GMST (IAU 2006) of 2400000.5 + 53736.0 is 1.754174971870091203 rad', () => {
    expect(gmst2006(mjd(53736), mjd(53736))).toBeCloseTo(published('1.754174971870091203'), 12)
  })

  it('GAST (IAU 2006/2000A) of 2400000.5 + 53736.0 is 1.754166137675019159 rad', () => {
    expect(gast2006A(mjd(53736), mjd(53736))).toBeCloseTo(published('1.754166137675019159'), 11)
  })

  it('the equation of the equinoxes (IAU 2006/2000A) is -0.8834195072043790156e-5 rad', () => {
    expect(
      Math.abs(equationOfEquinoxes2006A(mjd(53736)) - published('-0.8834195072043790156e-5')),
    ).toBeLessThan(1e-11)
  })

  it('the complementary terms are 0.2046085004885125264e-8 rad', () => {
    expect(
      Math.abs(equinoxComplementaryTerms(mjd(53736)) - published('0.2046085004885125264e-8')),
    ).toBeLessThan(1e-18)
  })

  it('nutation IAU 2000A and its IAU 2006 adjustment match to 1e-13 rad', () => {
    const n00 = nutation2000A(mjd(53736))
    expect(Math.abs(n00.dpsi - published('-0.9630909107115518431e-5'))).toBeLessThan(1e-13)
    expect(Math.abs(n00.deps - published('0.406323917400167871e-4'))).toBeLessThan(1e-13)
    const n06 = nutation2006A(mjd(53736))
    expect(Math.abs(n06.dpsi - published('-0.9630912025820308797e-5'))).toBeLessThan(1e-13)
    expect(Math.abs(n06.deps - published('0.4063238496887249798e-4'))).toBeLessThan(1e-13)
  })

  it('the mean obliquity (IAU 2006) and Earth rotation angle of MJD 54388', () => {
    expect(meanObliquity2006(mjd(54388))).toBeCloseTo(published('0.4090749229387258204'), 14)
    expect(earthRotationAngle(mjd(54388))).toBeCloseTo(published('0.4022837240028158102'), 12)
  })

  it("agrees with SOFA's IAU 2000 GMST and GAST examples to 1 ms (the models differ by µs)", () => {
    expect(
      Math.abs(gmst2006(mjd(53736), mjd(53736)) - published('1.754174972210740592')),
    ).toBeLessThan(MS_RAD)
    expect(
      Math.abs(gast2006A(mjd(53736), mjd(53736)) - published('1.754166138018281369')),
    ).toBeLessThan(MS_RAD)
  })
})

describe('Meeus, Astronomical Algorithms, examples 12.a and 12.b (1987 April 10)', () => {
  // Meeus prints GMST by the IAU 1982 expression. IAU 2006 differs from it by 3.3 ms of time in
  // 1987 (the corrected precession rate), so these published values are checked to 5 ms: they
  // guard against gross mistakes (hours, signs), the SOFA and ERFA tables above and below
  // guard the 1 ms.
  const ut1 = (iso: string) => timeScales(new Date(iso)).utc
  const tt = (iso: string) => ({ jd1: 2_400_000.5, jd2: ut1(iso).jd2 + 55.8 / 86_400 })
  const hms = (h: number, m: number, s: number) => (((h * 60 + m) * 60 + s) / 86_400) * 2 * Math.PI

  it('0h UT: GMST 13h10m46.3668s', () => {
    const iso = '1987-04-10T00:00:00Z'
    expect(Math.abs(gmst2006(ut1(iso), tt(iso)) - hms(13, 10, 46.3668))).toBeLessThan(5 * MS_RAD)
  })

  it('19h21m UT: GMST 8h34m57.0896s', () => {
    const iso = '1987-04-10T19:21:00Z'
    expect(Math.abs(gmst2006(ut1(iso), tt(iso)) - hms(8, 34, 57.0896))).toBeLessThan(5 * MS_RAD)
  })
})

describe('Greenwich sidereal time over 1900–2100 from UTC', () => {
  // No printed almanac tabulates IAU 2006/2000A sidereal time at these dates, so the expected
  // values were computed independently with ERFA 2.0.1 (pyerfa 2.0.1.5), the BSD-licensed copy of
  // IAU SOFA: eraDtf2d('UTC') → eraUtctai → eraTaitt for TT, UT1 = UTC, then eraGmst06,
  // eraGst06a and eraEe06a. Before 1960 ERFA's TAI − UTC is 0 ("dubious year"), as here. On a
  // leap-second day ERFA's UTC Julian date stretches the day to 86,401 s, so UT1 there was
  // taken from eraCal2jd plus the clock time over 86,400 s (as the service reads the clock).
  // [UTC, GMST rad, GAST rad, EE rad]
  const table: [string, number, number, number][] = [
    ['1900-01-01T00:00:00Z', 1.7485381382345926, 1.7486156648731304, 7.752663853821673e-5],
    ['1900-06-15T18:30:00Z', 3.160362571398884, 3.1604348823065602, 7.231090767589876e-5],
    ['1925-03-21T06:00:00Z', 4.681711699839163, 4.681655161290235, -5.6538548927953514e-5],
    ['1950-01-01T00:00:00Z', 1.74665099958007, 1.7466363104610763, -1.468911899404901e-5],
    ['1965-03-10T06:45:00Z', 4.694740616683491, 4.694667868164557, -7.274851893424028e-5],
    ['1987-04-10T19:21:00Z', 2.246900001614729, 2.2468828337838307, -1.7167830898223713e-5],
    ['2000-01-01T12:00:00Z', 4.8949612836056104, 4.894899323195352, -6.196041025852139e-5],
    ['2016-12-31T23:59:30Z', 1.7577664559415433, 1.7577377281572453, -2.8727784298077097e-5],
    ['2024-06-21T03:14:15Z', 5.556769197368069, 5.556753428501358, -1.5768866711063367e-5],
    ['2050-07-04T12:00:00Z', 1.792412095517189, 1.79247279320796, 6.0697690770439294e-5],
    ['2075-11-30T21:05:00Z', 0.4560257740403233, 0.4559456074363366, -8.016660398624254e-5],
    ['2099-12-31T23:59:59Z', 1.7581396929443402, 1.7581543192148106, 1.4626270470330383e-5],
    ['2100-12-31T12:00:00Z', 4.887037695521728, 4.887076283711029, 3.85881893016915e-5],
  ]

  it.each(table)('%s: GMST and GAST within 1 ms of time', (iso, gmst, gast, ee) => {
    const times = siderealTimes(new Date(iso), 0)
    expect(Math.abs(angleDiff(times.gmstDegrees, gmst * RAD_TO_DEG))).toBeLessThan(MS_DEG)
    expect(Math.abs(angleDiff(times.gastDegrees, gast * RAD_TO_DEG))).toBeLessThan(MS_DEG)
    // The equation of the equinoxes itself is far finer than that: a few microarcseconds.
    expect(Math.abs(equationOfEquinoxes2006A(timeScales(new Date(iso)).tt) - ee)).toBeLessThan(
      1e-10,
    )
  })

  it('local sidereal time is Greenwich plus the east longitude', () => {
    const instant = new Date('2024-06-21T03:14:15Z')
    const greenwich = siderealTimes(instant, 0)
    for (const longitude of [-179.5, -95.55551, 0.0001, 13.41053, 180]) {
      const local = siderealTimes(instant, longitude)
      expect(angleDiff(local.lastDegrees, greenwich.gastDegrees + longitude)).toBeCloseTo(0, 9)
      expect(angleDiff(local.lmstDegrees, greenwich.gmstDegrees + longitude)).toBeCloseTo(0, 9)
      expect(local.lastDegrees).toBeGreaterThanOrEqual(0)
      expect(local.lastDegrees).toBeLessThan(360)
    }
  })
})

describe('TAI − UTC', () => {
  // Values of ERFA's eraDat for the same dates.
  it.each([
    [1959, 12, 31, 0.5, 0],
    [1960, 1, 1, 0, 0.943482],
    [1965, 3, 10, 0.28125, 3.7286225],
    [1968, 2, 1, 0, 6.185682],
    [1971, 12, 31, 0.9, 9.8919828],
    [1972, 1, 1, 0, 10],
    [1972, 7, 1, 0, 11],
    [1999, 1, 1, 0, 32],
    [2016, 12, 31, 0.99, 36],
    [2017, 1, 1, 0, 37],
    [2100, 1, 1, 0, 37],
  ])('%i-%i-%i +%f d is %f s', (y, m, d, fraction, expected) => {
    expect(taiMinusUtc(y, m, d, fraction)).toBeCloseTo(expected, 6)
  })

  it('TT is UTC + 69.184 s since 2017', () => {
    const { utc, tt } = timeScales(new Date('2024-01-01T00:00:00Z'))
    expect((tt.jd2 - utc.jd2) * 86_400).toBeCloseTo(69.184, 6)
  })
})

describe('formatted sidereal time', () => {
  it('shows HH:MM:SS and never 24:00:00', () => {
    expect(formatSiderealTime(0)).toBe('00:00:00')
    expect(formatSiderealTime(45)).toBe('03:00:00')
    expect(formatSiderealTime(202.5)).toBe('13:30:00')
    expect(formatSiderealTime(359.99999999)).toBe('23:59:59')
  })
})
