// Every statement of the account area: a user's own rows in the descriptors schema.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'

/** Everything stored of one user, table by table. */
export async function accountRows(db: Executor, userId: string) {
  const [customWords, hidden, cards, answers, sessions] = await Promise.all([
    rows<{
      id: string
      language: string
      category: string
      word: string
      status: 'pending' | 'approved'
      created_at: string
    }>(
      db,
      sql`SELECT d.id, d.language, c.slug AS category, d.word, d.status, d.created_at
          FROM descriptors.descriptors d JOIN descriptors.categories c ON c.id = d.category_id
          WHERE d.is_custom AND d.created_by = ${userId} ORDER BY d.id`,
    ),
    rows<{ descriptor_id: string; language: string; word: string; created_at: string }>(
      db,
      sql`SELECT h.descriptor_id, d.language, d.word, h.created_at
          FROM descriptors.hidden h JOIN descriptors.descriptors d ON d.id = h.descriptor_id
          WHERE h.user_id = ${userId} ORDER BY h.created_at, h.descriptor_id`,
    ),
    rows<{
      descriptor_id: string
      language: string
      word: string
      state: number
      due: string
      stability: number
      difficulty: number
      reps: number
      lapses: number
      last_review: string | null
    }>(
      db,
      sql`SELECT r.descriptor_id, r.language, d.word, r.state, r.due, r.stability, r.difficulty,
                 r.reps, r.lapses, r.last_review
          FROM descriptors.review_cards r JOIN descriptors.descriptors d ON d.id = r.descriptor_id
          WHERE r.user_id = ${userId} ORDER BY r.language, r.due, r.descriptor_id`,
    ),
    rows<{
      id: string
      descriptor_id: string
      language: string
      rating: number
      answered_at: string
      duration_ms: number | null
    }>(
      db,
      sql`SELECT id, descriptor_id, language, rating, answered_at, duration_ms
          FROM descriptors.review_answers WHERE user_id = ${userId} ORDER BY answered_at, id`,
    ),
    rows<{
      id: string
      activity: 'ideogram' | 'descriptors' | 'tachistoscope'
      started_at: string
      duration_ms: number
      details: Record<string, unknown>
    }>(
      db,
      sql`SELECT id, activity, started_at, duration_ms, details
          FROM descriptors.training_sessions WHERE user_id = ${userId} ORDER BY started_at, id`,
    ),
  ])
  return { customWords, hidden, cards, answers, sessions }
}

export type AccountRows = Awaited<ReturnType<typeof accountRows>>

/** Their pending words, with the concepts of their own they stood for. */
export async function deletePendingWords(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`
    WITH gone AS (
      DELETE FROM descriptors.descriptors
      WHERE is_custom AND created_by = ${userId} AND status = 'pending'
      RETURNING concept_id)
    DELETE FROM descriptors.concepts c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`)
}

/** Approved words stay, without their author; how many there were. */
export async function releaseWords(db: Executor, userId: string): Promise<number> {
  const kept = await rows(
    db,
    sql`UPDATE descriptors.descriptors SET created_by = NULL WHERE created_by = ${userId} RETURNING id`,
  )
  return kept.length
}

/** Hides, review answers and cards, training sessions. */
export async function deleteTrainingData(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`DELETE FROM descriptors.hidden WHERE user_id = ${userId}`)
  await db.execute(sql`DELETE FROM descriptors.review_answers WHERE user_id = ${userId}`)
  await db.execute(sql`DELETE FROM descriptors.review_cards WHERE user_id = ${userId}`)
  await db.execute(sql`DELETE FROM descriptors.training_sessions WHERE user_id = ${userId}`)
}

/** The audit log and analytics keep what happened, without who. */
export async function forgetAuthor(
  db: Executor,
  userId: string,
  replacement: string,
): Promise<void> {
  await db.execute(
    sql`UPDATE descriptors.admin_actions SET user_id = ${replacement} WHERE user_id = ${userId}`,
  )
  await db.execute(
    sql`UPDATE descriptors.analytics_events SET user_id = NULL WHERE user_id = ${userId}`,
  )
}
