// Training history: the sessions a user finished and the time they spent on reviews, by day in
// their own time zone, with streaks. Days are counted in JavaScript (Intl), not by the database:
// the embedded database need not carry time zone data. Times are grouped in quarter hours
// first, the finest step of any zone's offset from UTC.
import { sql } from 'drizzle-orm'
import { AppError, defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { UserStates } from './user-cache.ts'
import { fromPostgresTimestamp } from './timestamps.ts'

type Schemas = components['schemas']
type Activity = Schemas['TrainingActivity']
type Minutes = Schemas['ActivityMinutes']

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

const noMinutes = (): Minutes => ({ ideogram: 0, descriptors: 0, tachistoscope: 0, reviews: 0 })
const round = (minutes: number) => Math.round(minutes * 10) / 10

function validTimeZone(name: string | undefined): string {
  const zone = name ?? 'UTC'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return zone
  } catch {
    throw new AppError('invalid_time_zone', 400, `Unknown time zone "${zone}"`)
  }
}

export function historyHandlers(db: Database, users: UserStates): Handlers {
  return defineHandlers('descriptors', {
    recordTrainingSession: async ({ body, user, reply }) => {
      const { id, activity, startedAt, durationMs, ...details } = body
      // A session cannot start in the future, nor end after now.
      const started = Math.min(Date.parse(startedAt), Date.now() - durationMs)
      const inserted = await rows(
        db,
        sql`INSERT INTO descriptors.training_sessions (user_id, id, activity, started_at, duration_ms, details)
            VALUES (${user.id}, ${id}, ${activity}, ${new Date(started).toISOString()}, ${durationMs},
                    ${JSON.stringify(details)}::jsonb)
            ON CONFLICT (user_id, id) DO NOTHING
            RETURNING 1`,
      )
      return reply.code(inserted.length > 0 ? 201 : 200).send(body)
    },

    getTrainingHistory: async ({ query, user }) => {
      const timeZone = validTimeZone(query.timeZone)
      const dayCount = query.days ?? 30
      const now = new Date()
      const today = localDate(now, timeZone)
      // Quarter hours with training, all time (streaks), with what was done in each.
      const quarters = await rows<{
        at: Date | string
        activity: Activity | 'reviews'
        ms: string | number
        sessions: string | number
        answers: string | number
      }>(
        db,
        sql`SELECT to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900) AS at, activity,
                   sum(duration_ms) AS ms, count(*) AS sessions, 0 AS answers
              FROM descriptors.training_sessions WHERE user_id = ${user.id} GROUP BY 1, 2
            UNION ALL
            SELECT to_timestamp(floor(extract(epoch FROM answered_at) / 900) * 900), 'reviews',
                   coalesce(sum(duration_ms), 0), 0, count(*)
              FROM descriptors.review_answers WHERE user_id = ${user.id} GROUP BY 1`,
      )
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
      const roundAll = (m: Minutes): Minutes => ({
        ideogram: round(m.ideogram),
        descriptors: round(m.descriptors),
        tachistoscope: round(m.tachistoscope),
        reviews: round(m.reviews),
      })
      const { current, longest } = streaks(active, today)
      return {
        timeZone,
        days: [...days.values()].map((d) => ({ ...d, minutes: roundAll(d.minutes) })),
        currentStreak: current,
        longestStreak: longest,
        totals: { ...totals, minutes: roundAll(totals.minutes) },
      }
    },

    deleteTrainingHistory: async ({ user, reply }) => {
      await db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM descriptors.training_sessions WHERE user_id = ${user.id}`)
        await tx.execute(sql`DELETE FROM descriptors.review_answers WHERE user_id = ${user.id}`)
        await tx.execute(sql`DELETE FROM descriptors.review_cards WHERE user_id = ${user.id}`)
      })
      users.forget(user.id)
      return reply.code(204).send()
    },
  })
}
