// Training history: the sessions a user finished and the time they spent on reviews, by day in
// their own time zone, with streaks. Days are counted in JavaScript (Intl), not by the database:
// the embedded database need not carry time zone data. Times are grouped in quarter hours
// first, the finest step of any zone's offset from UTC.
import { AppError } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import { fromPostgresTimestamp } from '@crv/kit/db'
import { deleteReviews, deleteSessions, insertSession, quartersOf } from './repository.ts'
import { noMinutes, roundMinutes } from './views.ts'

type Schemas = components['schemas']

const DAY_MS = 86_400_000

/** The calendar date of an instant in a time zone, as YYYY-MM-DD. */
export function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at)
}

const previousDate = (date: string) =>
  new Date(Date.parse(`${date}T12:00:00Z`) - DAY_MS).toISOString().slice(0, 10)

/** Current (ending today, or yesterday when nothing yet today) and longest run of dates. */
export function streaks(dates: ReadonlySet<string>, today: string) {
  let longest = 0
  for (const date of dates) {
    if (dates.has(previousDate(date))) continue
    let length = 0
    let day = date
    while (dates.has(day)) {
      length++
      day = new Date(Date.parse(`${day}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    }
    longest = Math.max(longest, length)
  }
  let current = 0
  let day = dates.has(today) ? today : previousDate(today)
  while (dates.has(day)) {
    current++
    day = previousDate(day)
  }
  return { current, longest }
}

function validTimeZone(name: string | undefined): string {
  const zone = name ?? 'UTC'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return zone
  } catch {
    throw new AppError('invalid_time_zone', 400, `Unknown time zone "${zone}"`)
  }
}

/** Stores a finished session (once per id); whether it was new. */
export async function recordSession(
  db: Database,
  userId: string,
  record: Schemas['TrainingSessionRecord'],
): Promise<boolean> {
  const { id, activity, startedAt, durationMs, ...details } = record
  // A session cannot start in the future, nor end after now.
  const started = Math.min(Date.parse(startedAt), Date.now() - durationMs)
  return insertSession(db, userId, {
    id,
    activity,
    startedAt: new Date(started),
    durationMs,
    details,
  })
}

/** The last `dayCount` days in the caller's time zone, streaks and totals. */
export async function trainingHistory(
  db: Database,
  userId: string,
  query: { days?: number; timeZone?: string },
): Promise<Schemas['TrainingHistory']> {
  const timeZone = validTimeZone(query.timeZone)
  const dayCount = query.days ?? 30
  const now = new Date()
  const today = localDate(now, timeZone)
  // Quarter hours with training, all time (streaks), with what was done in each.
  const quarters = await quartersOf(db, userId)
  const dates: string[] = []
  for (let i = dayCount - 1; i >= 0; i--) {
    // Noon steps never skip or repeat a date across a daylight-saving change.
    const at = new Date(Date.parse(`${today}T12:00:00Z`) - i * DAY_MS)
    dates.push(at.toISOString().slice(0, 10))
  }
  const days = new Map<string, Schemas['TrainingDay']>(
    dates.map((date) => [date, { date, minutes: noMinutes(), sessions: 0, reviews: 0 }]),
  )
  const active = new Set<string>()
  const totals = { minutes: noMinutes(), sessions: 0, reviews: 0 }
  for (const q of quarters) {
    const date = localDate(fromPostgresTimestamp(q.at), timeZone)
    active.add(date)
    const minutes = Number(q.ms) / 60_000
    totals.minutes[q.activity] += minutes
    totals.sessions += Number(q.sessions)
    totals.reviews += Number(q.answers)
    const day = days.get(date)
    if (!day) continue
    day.minutes[q.activity] += minutes
    day.sessions += Number(q.sessions)
    day.reviews += Number(q.answers)
  }
  const { current, longest } = streaks(active, today)
  return {
    timeZone,
    days: [...days.values()].map((d) => ({ ...d, minutes: roundMinutes(d.minutes) })),
    currentStreak: current,
    longestStreak: longest,
    totals: { ...totals, minutes: roundMinutes(totals.minutes) },
  }
}

/** Sessions, review answers and cards, in one transaction. */
export async function deleteHistory(db: Database, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await deleteSessions(tx, userId)
    await deleteReviews(tx, userId)
  })
}
