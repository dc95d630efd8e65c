// Every statement of the history area: training sessions, and the time spent on reviews.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'
import type { components } from '@crv/contracts'

type Schemas = components['schemas']

/** Stores a finished session once; whether it was new. */
export async function insertSession(
  db: Executor,
  userId: string,
  session: { id: string; activity: string; startedAt: Date; durationMs: number; details: object },
): Promise<boolean> {
  const inserted = await rows(
    db,
    sql`INSERT INTO descriptors.training_sessions (user_id, id, activity, started_at, duration_ms, details)
        VALUES (${userId}, ${session.id}, ${session.activity}, ${session.startedAt.toISOString()}, ${session.durationMs},
                ${JSON.stringify(session.details)}::jsonb)
        ON CONFLICT (user_id, id) DO NOTHING
        RETURNING 1`,
  )
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
export async function quartersOf(db: Executor, userId: string): Promise<QuarterRow[]> {
  return rows<QuarterRow>(
    db,
    sql`SELECT to_timestamp(floor(extract(epoch FROM started_at) / 900) * 900) AS at, activity,
               sum(duration_ms) AS ms, count(*) AS sessions, 0 AS answers
          FROM descriptors.training_sessions WHERE user_id = ${userId} GROUP BY 1, 2
        UNION ALL
        SELECT to_timestamp(floor(extract(epoch FROM answered_at) / 900) * 900), 'reviews',
               coalesce(sum(duration_ms), 0), 0, count(*)
          FROM descriptors.review_answers WHERE user_id = ${userId} GROUP BY 1`,
  )
}

export async function deleteSessions(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`DELETE FROM descriptors.training_sessions WHERE user_id = ${userId}`)
}

/** The user's review answers and cards: their review history. */
export async function deleteReviews(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`DELETE FROM descriptors.review_answers WHERE user_id = ${userId}`)
  await db.execute(sql`DELETE FROM descriptors.review_cards WHERE user_id = ${userId}`)
}
