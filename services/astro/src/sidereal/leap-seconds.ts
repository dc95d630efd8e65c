/**
 * TAI − UTC in seconds, as the IAU SOFA routine iauDat gives it: the leap-second table from
 * 1972 and the 1960–1971 rubber-second drift formulas. Before 1960 (no UTC) the value is 0,
 * SOFA's convention for "dubious year"; after the last entry the last value holds until the
 * next leap second is announced (add it here and to the test).
 */

/** [year, month, TAI − UTC at the start of that month (s)]; drift: [MJD, s per day]. */
const STEPS: readonly (readonly [number, number, number, number?, number?])[] = [
  [1960, 1, 1.417818, 37300, 0.001296],
  [1961, 1, 1.422818, 37300, 0.001296],
  [1961, 8, 1.372818, 37300, 0.001296],
  [1962, 1, 1.845858, 37665, 0.0011232],
  [1963, 11, 1.945858, 37665, 0.0011232],
  [1964, 1, 3.24013, 38761, 0.001296],
  [1964, 4, 3.34013, 38761, 0.001296],
  [1964, 9, 3.44013, 38761, 0.001296],
  [1965, 1, 3.54013, 38761, 0.001296],
  [1965, 3, 3.64013, 38761, 0.001296],
  [1965, 7, 3.74013, 38761, 0.001296],
  [1965, 9, 3.84013, 38761, 0.001296],
  [1966, 1, 4.31317, 39126, 0.002592],
  [1968, 2, 4.21317, 39126, 0.002592],
  [1972, 1, 10],
  [1972, 7, 11],
  [1973, 1, 12],
  [1974, 1, 13],
  [1975, 1, 14],
  [1976, 1, 15],
  [1977, 1, 16],
  [1978, 1, 17],
  [1979, 1, 18],
  [1980, 1, 19],
  [1981, 7, 20],
  [1982, 7, 21],
  [1983, 7, 22],
  [1985, 7, 23],
  [1988, 1, 24],
  [1990, 1, 25],
  [1991, 1, 26],
  [1992, 7, 27],
  [1993, 7, 28],
  [1994, 7, 29],
  [1996, 1, 30],
  [1997, 7, 31],
  [1999, 1, 32],
  [2006, 1, 33],
  [2009, 1, 34],
  [2012, 7, 35],
  [2015, 7, 36],
  [2017, 1, 37],
]

/** Modified Julian Date of 0h UTC on a Gregorian calendar date. */
const mjdOf = (year: number, month: number, day: number) =>
  Date.UTC(year, month - 1, day) / 86_400_000 + 40_587

/** TAI − UTC (s) on a UTC calendar date, `dayFraction` into that day (for the drift years). */
export function taiMinusUtc(year: number, month: number, day: number, dayFraction = 0): number {
  const key = year * 12 + month
  let found: (typeof STEPS)[number] | undefined
  for (const step of STEPS) {
    if (step[0] * 12 + step[1] <= key) found = step
    else break
  }
  if (!found) return 0
  const [, , offset, driftMjd, driftRate] = found
  if (driftMjd === undefined || driftRate === undefined) return offset
  return offset + (mjdOf(year, month, day) + dayFraction - driftMjd) * driftRate
}
