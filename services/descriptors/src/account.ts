// A user's own data in this service, for their export and for deleting their account
// (`GET`/`DELETE /api/account/descriptors`; the auth service gathers every service's part).
import { sql } from 'drizzle-orm'
import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { SharedVocabulary } from './shared-cache.ts'
import type { UserStates } from './user-cache.ts'
import { fromPostgresTimestamp } from './timestamps.ts'

type Data = components['schemas']['DescriptorAccountData']

/** Who an administrator's deleted account was, in the audit log: no one in particular. */
export const DELETED_ACCOUNT = 'deleted-account'

const STATES = ['new', 'learning', 'review', 'relearning'] as const
const RATINGS = ['again', 'hard', 'good', 'easy'] as const

const iso = (value: string | Date) => fromPostgresTimestamp(value).toISOString()

export async function accountData(db: Database, userId: string): Promise<Data> {
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
  return {
    customWords: customWords.map((r) => ({
      id: Number(r.id),
      language: r.language,
      category: r.category,
      word: r.word,
      status: r.status,
      createdAt: iso(r.created_at),
    })),
    hidden: hidden.map((r) => ({
      descriptorId: Number(r.descriptor_id),
      language: r.language,
      word: r.word,
      hiddenAt: iso(r.created_at),
    })),
    reviewCards: cards.map((r) => ({
      descriptorId: Number(r.descriptor_id),
      language: r.language,
      word: r.word,
      state: STATES[r.state] ?? 'new',
      due: iso(r.due),
      stability: Number(r.stability),
      difficulty: Number(r.difficulty),
      reps: r.reps,
      lapses: r.lapses,
      lastReview: r.last_review === null ? null : iso(r.last_review),
    })),
    reviewAnswers: answers.map((r) => ({
      id: r.id,
      descriptorId: Number(r.descriptor_id),
      language: r.language,
      rating: RATINGS[r.rating - 1] ?? 'good',
      answeredAt: iso(r.answered_at),
      durationMs: r.duration_ms,
    })),
    trainingSessions: sessions.map((r) => ({
      id: r.id,
      activity: r.activity,
      startedAt: iso(r.started_at),
      durationMs: r.duration_ms,
      details: r.details,
    })),
  }
}

/**
 * Deletes everything of the user's here, in one transaction: their pending words (with their
 * concepts), hides, review cards and answers and training sessions. Words an administrator
 * approved into the shared vocabulary stay, without their author; the audit log and analytics
 * keep what happened, without who.
 */
export async function deleteAccountData(
  db: Database,
  userId: string,
): Promise<{ sharedChanged: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      WITH gone AS (
        DELETE FROM descriptors.descriptors
        WHERE is_custom AND created_by = ${userId} AND status = 'pending'
        RETURNING concept_id)
      DELETE FROM descriptors.concepts c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`)
    const kept = await rows(
      tx,
      sql`UPDATE descriptors.descriptors SET created_by = NULL WHERE created_by = ${userId} RETURNING id`,
    )
    await tx.execute(sql`DELETE FROM descriptors.hidden WHERE user_id = ${userId}`)
    await tx.execute(sql`DELETE FROM descriptors.review_answers WHERE user_id = ${userId}`)
    await tx.execute(sql`DELETE FROM descriptors.review_cards WHERE user_id = ${userId}`)
    await tx.execute(sql`DELETE FROM descriptors.training_sessions WHERE user_id = ${userId}`)
    await tx.execute(
      sql`UPDATE descriptors.admin_actions SET user_id = ${DELETED_ACCOUNT} WHERE user_id = ${userId}`,
    )
    await tx.execute(
      sql`UPDATE descriptors.analytics_events SET user_id = NULL WHERE user_id = ${userId}`,
    )
    return { sharedChanged: kept.length > 0 }
  })
}

export function accountHandlers(
  db: Database,
  shared: SharedVocabulary,
  users: UserStates,
): Handlers {
  return defineHandlers('descriptors', {
    exportDescriptorsAccountData: async ({ user }) => accountData(db, user.id),
    deleteDescriptorsAccountData: async ({ user, reply }) => {
      const { sharedChanged } = await deleteAccountData(db, user.id)
      users.forget(user.id)
      if (sharedChanged) shared.invalidate()
      return reply.code(204).send()
    },
  })
}
