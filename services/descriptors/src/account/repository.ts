// Every statement of the account area: a user's own rows in the descriptors schema.
import { and, asc, eq, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import {
  adminActions,
  analyticsEvents,
  categories,
  concepts,
  descriptors,
  hidden,
  int8Text,
  reviewAnswers,
  reviewCards,
  trainingSessions,
} from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

/** Everything stored of one user, table by table. */
export async function accountRows(db: Queryable, userId: string) {
  const [customWords, hides, cards, answers, sessions] = await Promise.all([
    db
      .select({
        id: int8Text(descriptors.id),
        language: descriptors.language,
        category: categories.slug,
        word: descriptors.word,
        // A user's word is pending or approved, never part of the shipped vocabulary.
        status: sql<'pending' | 'approved'>`${descriptors.status}`,
        created_at: descriptors.createdAt,
      })
      .from(descriptors)
      .innerJoin(categories, eq(categories.id, descriptors.categoryId))
      .where(and(descriptors.isCustom, eq(descriptors.createdBy, userId)))
      .orderBy(descriptors.id),
    db
      .select({
        descriptor_id: int8Text(hidden.descriptorId),
        language: descriptors.language,
        word: descriptors.word,
        created_at: hidden.createdAt,
      })
      .from(hidden)
      .innerJoin(descriptors, eq(descriptors.id, hidden.descriptorId))
      .where(eq(hidden.userId, userId))
      .orderBy(hidden.createdAt, hidden.descriptorId),
    db
      .select({
        descriptor_id: int8Text(reviewCards.descriptorId),
        language: reviewCards.language,
        word: descriptors.word,
        state: reviewCards.state,
        due: reviewCards.due,
        stability: reviewCards.stability,
        difficulty: reviewCards.difficulty,
        reps: reviewCards.reps,
        lapses: reviewCards.lapses,
        last_review: reviewCards.lastReview,
      })
      .from(reviewCards)
      .innerJoin(descriptors, eq(descriptors.id, reviewCards.descriptorId))
      .where(eq(reviewCards.userId, userId))
      .orderBy(reviewCards.language, reviewCards.due, reviewCards.descriptorId),
    db
      .select({
        id: reviewAnswers.id,
        descriptor_id: int8Text(reviewAnswers.descriptorId),
        language: reviewAnswers.language,
        rating: reviewAnswers.rating,
        answered_at: reviewAnswers.answeredAt,
        duration_ms: reviewAnswers.durationMs,
      })
      .from(reviewAnswers)
      .where(eq(reviewAnswers.userId, userId))
      .orderBy(reviewAnswers.answeredAt, reviewAnswers.id),
    db
      .select({
        id: trainingSessions.id,
        activity: trainingSessions.activity,
        started_at: trainingSessions.startedAt,
        duration_ms: trainingSessions.durationMs,
        details: trainingSessions.details,
      })
      .from(trainingSessions)
      .where(eq(trainingSessions.userId, userId))
      .orderBy(asc(trainingSessions.startedAt), asc(trainingSessions.id)),
  ])
  return { customWords, hidden: hides, cards, answers, sessions }
}

export type AccountRows = Awaited<ReturnType<typeof accountRows>>

/** Their pending words, with the concepts of their own they stood for. */
export async function deletePendingWords(db: Queryable, userId: string): Promise<void> {
  await rows(
    db,
    sql`
    WITH gone AS (
      DELETE FROM ${descriptors}
      WHERE is_custom AND created_by = ${userId} AND status = 'pending'
      RETURNING concept_id)
    DELETE FROM ${concepts} c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`,
  )
}

/** Approved words stay, without their author; how many there were. */
export async function releaseWords(db: Queryable, userId: string): Promise<number> {
  const kept = await db
    .update(descriptors)
    .set({ createdBy: null })
    .where(eq(descriptors.createdBy, userId))
    .returning({ id: descriptors.id })
  return kept.length
}

/** Hides, review answers and cards, training sessions. */
export async function deleteTrainingData(db: Queryable, userId: string): Promise<void> {
  await db.delete(hidden).where(eq(hidden.userId, userId))
  await db.delete(reviewAnswers).where(eq(reviewAnswers.userId, userId))
  await db.delete(reviewCards).where(eq(reviewCards.userId, userId))
  await db.delete(trainingSessions).where(eq(trainingSessions.userId, userId))
}

/** The audit log and analytics keep what happened, without who. */
export async function forgetAuthor(
  db: Queryable,
  userId: string,
  replacement: string,
): Promise<void> {
  await db.update(adminActions).set({ userId: replacement }).where(eq(adminActions.userId, userId))
  await db.update(analyticsEvents).set({ userId: null }).where(eq(analyticsEvents.userId, userId))
}
