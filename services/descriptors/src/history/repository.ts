// Every statement of the history area: training sessions, and the time spent on reviews.
import { eq, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import { reviewAnswers, reviewCards, trainingSessions } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

type Schemas = components['schemas']

/** Stores a finished session once; whether it was new. */
export async function insertSession(
  db: Queryable,
  userId: string,
  session: {
    id: string
    activity: Schemas['TrainingActivity']
    startedAt: Date
    durationMs: number
    details: object
  },
): Promise<boolean> {
  const inserted = await db
    .insert(trainingSessions)
    .values({
      userId,
      id: session.id,
      activity: session.activity,
      startedAt: session.startedAt.toISOString(),
      durationMs: session.durationMs,
      details: { ...session.details },
    })
    .onConflictDoNothing({ target: [trainingSessions.userId, trainingSessions.id] })
    .returning({ id: trainingSessions.id })
  return inserted.length > 0
}

export interface QuarterRow {
  at: Date | string
  activity: Schemas['TrainingActivity'] | 'reviews'
  ms: string | number
  sessions: string | number
  answers: string | number
}

/** Quarter hours with training, all time, with what was done in each. */
export async function quartersOf(db: Queryable, userId: string): Promise<QuarterRow[]> {
  return rows<QuarterRow>(
    db,
    sql`SELECT to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900) AS at, activity,
               sum(duration_ms) AS ms, count(*) AS sessions, 0 AS answers
          FROM ${trainingSessions} WHERE user_id = ${userId} GROUP BY 1, 2
        UNION ALL
        SELECT to_timestamp(floor(extract(epoch FROM answered_at) / 900) * 900), 'reviews',
               coalesce(sum(duration_ms), 0), 0, count(*)
          FROM ${reviewAnswers} WHERE user_id = ${userId} GROUP BY 1`,
  )
}

export async function deleteSessions(db: Queryable, userId: string): Promise<void> {
  await db.delete(trainingSessions).where(eq(trainingSessions.userId, userId))
}

/** The user's review answers and cards: their review history. */
export async function deleteReviews(db: Queryable, userId: string): Promise<void> {
  await db.delete(reviewAnswers).where(eq(reviewAnswers.userId, userId))
  await db.delete(reviewCards).where(eq(reviewCards.userId, userId))
}
