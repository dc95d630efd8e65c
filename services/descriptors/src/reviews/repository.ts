// Every statement of the reviews area: review cards and answers, written as row sets.
import { and, eq, inArray, not, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Card } from 'ts-fsrs'
import { rows } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'
import { descriptors, int8Text, reviewCards } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import type { Language } from '../vocabulary/shipped.ts'
import type { AfterRow, CardRow } from './views.ts'

/** An answer to store, with the card state before it and the card it left (if known). */
export interface AnswerRow {
  id: string
  descriptorId: number
  language: Language
  rating: number
  state: number
  answeredAt: Date
  durationMs: number | undefined
  after: Card | null
}

/** A card to store, and how many of this request's answers made it. */
export interface MadeCard {
  id: number
  language: Language
  card: Card
  first: Date
  answers: number
}

const cardColumns = sql`user_id, descriptor_id, language, state, due, stability, difficulty,
  elapsed_days, scheduled_days, learning_steps, reps, lapses, last_review, first_review`
const cardUpdate = sql`state = EXCLUDED.state, due = EXCLUDED.due, stability = EXCLUDED.stability,
  difficulty = EXCLUDED.difficulty, elapsed_days = EXCLUDED.elapsed_days,
  scheduled_days = EXCLUDED.scheduled_days, learning_steps = EXCLUDED.learning_steps,
  reps = EXCLUDED.reps, lapses = EXCLUDED.lapses, last_review = EXCLUDED.last_review`

/** Cards as one row set (one parameter per column, whatever their number). */
function cardRows(cards: { id: number; language: Language; card: Card; first: Date }[]): SQL {
  const column = <T>(f: (c: (typeof cards)[number]) => T) => sql.param(cards.map(f))
  return sql`unnest(${column((c) => c.id)}::bigint[], ${column((c) => c.language)}::text[],
      ${column((c) => c.card.state)}::smallint[], ${column((c) => c.card.due.toISOString())}::timestamptz[],
      ${column((c) => c.card.stability)}::float8[], ${column((c) => c.card.difficulty)}::float8[],
      ${column((c) => c.card.elapsed_days)}::int[], ${column((c) => c.card.scheduled_days)}::int[],
      ${column((c) => c.card.learning_steps)}::int[], ${column((c) => c.card.reps)}::int[],
      ${column((c) => c.card.lapses)}::int[], ${column((c) => c.card.last_review?.toISOString() ?? null)}::timestamptz[],
      ${column((c) => c.first.toISOString())}::timestamptz[])
    AS m(descriptor_id, language, state, due, stability, difficulty, elapsed_days,
         scheduled_days, learning_steps, reps, lapses, last_review, first_review)`
}

/** The columns of review_answers that hold the card an answer left (migration 0006). */
const afterColumns = sql`after_state, after_due, after_stability, after_difficulty,
  after_elapsed_days, after_scheduled_days, after_learning_steps, after_reps, after_lapses`

/** Their types, for a row set read from JSON (`jsonb_to_recordset`). */
const afterTypes = sql`after_state smallint, after_due timestamptz, after_stability float8,
  after_difficulty float8, after_elapsed_days int, after_scheduled_days int,
  after_learning_steps int, after_reps int, after_lapses int`

/**
 * The card an answer left (or none) as those columns' fields of a JSON row. Rows go to the
 * database as one JSON document: for a replay's thousand rows, encoding each column as an array
 * parameter took 5.6 ms of the service's thread, JSON.stringify 0.9 ms.
 */
const afterFields = (card: Card | null) => ({
  after_state: card?.state ?? null,
  after_due: card?.due.toISOString() ?? null,
  after_stability: card?.stability ?? null,
  after_difficulty: card?.difficulty ?? null,
  after_elapsed_days: card?.elapsed_days ?? null,
  after_scheduled_days: card?.scheduled_days ?? null,
  after_learning_steps: card?.learning_steps ?? null,
  after_reps: card?.reps ?? null,
  after_lapses: card?.lapses ?? null,
})

/**
 * Where a replay of each word (`w.descriptor_id`) starts, for answers from `w.since` on: its last
 * answer before then that holds the card it left. None: from the word's first answer.
 */
const checkpoint = (userId: string) => sql`
  SELECT p.id, p.answered_at, p.received_at, ${afterColumns}
  FROM descriptors.review_answers p
  WHERE p.user_id = ${userId} AND p.descriptor_id = w.descriptor_id AND p.answered_at < w.since
    AND p.after_reps IS NOT NULL
  ORDER BY p.answered_at DESC, p.received_at DESC, p.id DESC
  LIMIT 1`

/**
 * Answer `a` comes after checkpoint `k` in a replay's order, or is it (or there is none); the
 * bound on `answered_at` alone lets the answers' index start there instead of at the word's
 * first answer.
 */
const fromCheckpoint = (including: 'and it' | 'after it') => sql`
  a.answered_at >= coalesce(k.answered_at, '-infinity') AND (k.id IS NULL
    OR (a.answered_at, a.received_at, a.id) ${sql.raw(including === 'and it' ? '>=' : '>')}
       (k.answered_at, k.received_at, k.id))`

/** Each word and the time its earliest new answer was given, as `w(descriptor_id, since)`. */
function wordsSince(since: Map<number, Date>): SQL {
  return sql`unnest(${sql.param([...since.keys()])}::bigint[],
    ${sql.param([...since.values()].map((t) => t.toISOString()))}::timestamptz[])
    AS w(descriptor_id, since)`
}

/**
 * One statement: every answer, and each card its answers made when they came after the card's
 * last review, unless the card changed since it was read (its reps count every answer) or one of
 * its answers was recorded before. Anything else is put right by a replay.
 */
function recordStatement(userId: string, answers: AnswerRow[], made: MadeCard[]): SQL {
  const answerRows = answers.map((a) => ({
    id: a.id,
    descriptor_id: a.descriptorId,
    language: a.language,
    rating: a.rating,
    state: a.state,
    answered_at: a.answeredAt.toISOString(),
    duration_ms: a.durationMs ?? null,
    ...afterFields(a.after),
  }))
  const cards =
    made.length === 0
      ? sql`SELECT NULL::bigint AS descriptor_id WHERE false`
      : sql`INSERT INTO descriptors.review_cards (${cardColumns})
            SELECT ${userId}, m.* FROM ${cardRows(made)}
            JOIN unnest(${sql.param(made.map((m) => m.id))}::bigint[],
                        ${sql.param(made.map((m) => m.answers))}::int[]) AS n(descriptor_id, answers)
              USING (descriptor_id)
            WHERE n.answers = (SELECT count(*) FROM answer a WHERE a.descriptor_id = m.descriptor_id)
              AND (m.reps = n.answers OR EXISTS (
                SELECT 1 FROM descriptors.review_cards c
                WHERE c.user_id = ${userId} AND c.descriptor_id = m.descriptor_id))
            ON CONFLICT (user_id, descriptor_id) DO UPDATE SET ${cardUpdate}
            WHERE descriptors.review_cards.reps = EXCLUDED.reps - (
              SELECT count(*) FROM answer a WHERE a.descriptor_id = EXCLUDED.descriptor_id)
            RETURNING descriptor_id`
  return sql`WITH answer AS (
      INSERT INTO descriptors.review_answers
        (user_id, id, descriptor_id, language, rating, state, answered_at, duration_ms, ${afterColumns})
      SELECT ${userId}, a.* FROM jsonb_to_recordset(${JSON.stringify(answerRows)}::jsonb)
        AS a(id uuid, descriptor_id bigint, language text, rating smallint, state smallint,
             answered_at timestamptz, duration_ms int, ${afterTypes})
      ON CONFLICT (user_id, id) DO NOTHING
      RETURNING id, descriptor_id
    ), card AS (${cards})
    SELECT (SELECT coalesce(json_agg(id), '[]') FROM answer) AS answered,
           (SELECT coalesce(json_agg(descriptor_id), '[]') FROM card) AS saved`
}

/** Runs recordStatement: the ids of the answers that were new, and the cards saved. */
export async function recordRows(
  db: Executor,
  userId: string,
  answers: AnswerRow[],
  made: MadeCard[],
): Promise<{ answered: string[]; saved: (string | number)[] } | undefined> {
  const [row] = await rows<{ answered: string[]; saved: (string | number)[] }>(
    db,
    recordStatement(userId, answers, made),
  )
  return row
}

/** The user's replays one at a time, so two replays of one card never interleave. */
export async function lockReplays(tx: Executor, userId: string): Promise<void> {
  await rows(tx, sql`SELECT pg_advisory_xact_lock(hashtext(${`reviews:${userId}`}))`)
}

/**
 * Holds these cards' rows until the replay's transaction ends. A step is recorded outside the
 * replays' lock (one statement, checked by the card's repetitions); without this, a step that
 * committed after the replay read the answers was overwritten by the replay's card and its
 * answer lost from the card (seen: ten devices answering one card at once, 10 repetitions of 11).
 * Now such a step waits for the replay, finds the card moved, and replays after it. Rows are
 * locked in id order.
 */
export async function lockCards(tx: Executor, userId: string, ids: number[]): Promise<void> {
  await rows(
    tx,
    sql`SELECT 1 FROM descriptors.review_cards
        WHERE user_id = ${userId} AND descriptor_id = ANY(${sql.param(ids)}::bigint[])
        ORDER BY descriptor_id FOR UPDATE`,
  )
}

/** A stored answer as a replay reads it; the checkpoint's card on the checkpoint's row only. */
export interface ReplayRow {
  id: string
  descriptor_id: string | number
  rating: number
  state: number
  answered_at: string
  first: string
  checkpoint: AfterRow | null
}

/**
 * Each word's answers from its checkpoint (the last answer before `since` that holds the card
 * it left) on, in a replay's order, with when the word was first answered.
 */
export async function replayHistory(
  tx: Executor,
  userId: string,
  since: Map<number, Date>,
): Promise<ReplayRow[]> {
  return rows<ReplayRow>(
    tx,
    sql`SELECT w.descriptor_id, a.id, a.rating, a.state, a.answered_at, f.first,
               CASE WHEN a.id = k.id THEN to_jsonb(k) END AS checkpoint
        FROM ${wordsSince(since)}
        LEFT JOIN LATERAL (${checkpoint(userId)}) k ON true
        CROSS JOIN LATERAL (
          SELECT min(answered_at) AS first FROM descriptors.review_answers
          WHERE user_id = ${userId} AND descriptor_id = w.descriptor_id) f
        CROSS JOIN LATERAL (
          SELECT a.id, a.rating, a.state, a.answered_at, a.received_at
          FROM descriptors.review_answers a
          WHERE a.user_id = ${userId} AND a.descriptor_id = w.descriptor_id
            AND ${fromCheckpoint('and it')}
          -- Kept a subquery: joined flat, the planner read every answer of the words and looked
          -- for the checkpoint once per answer (0.8 s for ten words of 2,000 answers, not 8 ms).
          OFFSET 0) a
        ORDER BY w.descriptor_id, a.answered_at, a.received_at, a.id`,
  )
}

/** What a replay made: each answer's state before it and the card it left, and the cards. */
export async function saveReplay(
  tx: Executor,
  userId: string,
  fixes: { id: string; state: number; after: Card }[],
  cards: { id: number; language: Language; card: Card; first: Date }[],
): Promise<void> {
  if (fixes.length > 0)
    await rows(
      tx,
      sql`
      UPDATE descriptors.review_answers r SET state = f.state, after_state = f.after_state,
        after_due = f.after_due, after_stability = f.after_stability,
        after_difficulty = f.after_difficulty, after_elapsed_days = f.after_elapsed_days,
        after_scheduled_days = f.after_scheduled_days,
        after_learning_steps = f.after_learning_steps, after_reps = f.after_reps,
        after_lapses = f.after_lapses
      FROM jsonb_to_recordset(${JSON.stringify(
        fixes.map((f) => ({ id: f.id, state: f.state, ...afterFields(f.after) })),
      )}::jsonb) AS f(id uuid, state smallint, ${afterTypes})
      WHERE r.user_id = ${userId} AND r.id = f.id`,
    )
  if (cards.length > 0)
    await rows(
      tx,
      sql`
      INSERT INTO descriptors.review_cards (${cardColumns})
      SELECT ${userId}, m.* FROM ${cardRows(cards)}
      ON CONFLICT (user_id, descriptor_id) DO UPDATE SET ${cardUpdate},
        first_review = EXCLUDED.first_review`,
    )
}

/** A reviewable word with its card (if any) and how many stored answers follow its checkpoint. */
export type ReviewableRow = Omit<CardRow, 'descriptor_id'> & {
  id: string | number
  language: Language
  carded: boolean
  behind: string | number
}

/**
 * One read: the words the caller may review (shared ones and their own; another user's pending
 * word is not theirs), each with its card if it has one, and how many stored answers a replay
 * from its earliest new answer would step through (counted up to `countTo`).
 */
export async function reviewableRows(
  db: Executor,
  userId: string,
  since: Map<number, Date>,
  countTo: number,
): Promise<ReviewableRow[]> {
  return rows<ReviewableRow>(
    db,
    sql`SELECT d.id, d.language, c.user_id IS NOT NULL AS carded, c.state, c.due, c.stability,
               c.difficulty, c.elapsed_days, c.scheduled_days, c.learning_steps, c.reps,
               c.lapses, c.last_review, c.first_review,
               (SELECT count(*) FROM (
                  SELECT 1 FROM descriptors.review_answers a
                  WHERE a.user_id = ${userId} AND a.descriptor_id = d.id AND ${fromCheckpoint('after it')}
                  LIMIT ${countTo}) s) AS behind
        FROM ${wordsSince(since)}
        JOIN descriptors.descriptors d ON d.id = w.descriptor_id
        LEFT JOIN descriptors.review_cards c ON c.descriptor_id = d.id AND c.user_id = ${userId}
        LEFT JOIN LATERAL (${checkpoint(userId)}) k ON true
        WHERE d.status IN ('system', 'approved') OR d.created_by = ${userId}`,
  )
}

/** The English word of each shipped concept among these descriptors. */
export async function englishWords(
  db: Queryable,
  ids: number[],
): Promise<{ id: string | number; word: string }[]> {
  const d = alias(descriptors, 'd')
  const en = alias(descriptors, 'en')
  return db
    .select({ id: int8Text(d.id), word: en.word })
    .from(d)
    .innerJoin(en, and(eq(en.conceptId, d.conceptId), eq(en.language, 'en'), not(en.isCustom)))
    .where(inArray(d.id, ids))
}

/** The caller's cards in a language. */
export async function cardsOf(
  db: Queryable,
  userId: string,
  language: Language,
): Promise<CardRow[]> {
  return db
    .select({
      user_id: reviewCards.userId,
      descriptor_id: int8Text(reviewCards.descriptorId),
      language: reviewCards.language,
      state: reviewCards.state,
      due: reviewCards.due,
      stability: reviewCards.stability,
      difficulty: reviewCards.difficulty,
      elapsed_days: reviewCards.elapsedDays,
      scheduled_days: reviewCards.scheduledDays,
      learning_steps: reviewCards.learningSteps,
      reps: reviewCards.reps,
      lapses: reviewCards.lapses,
      last_review: reviewCards.lastReview,
      first_review: reviewCards.firstReview,
    })
    .from(reviewCards)
    .where(and(eq(reviewCards.userId, userId), eq(reviewCards.language, language)))
}

/** Counts of the caller's cards (hidden words left out): due now, due today, by state. */
export async function cardCounts(
  db: Executor,
  userId: string,
  language: Language,
  now: Date,
  until: Date,
): Promise<Record<string, number | string> | undefined> {
  const [cards] = await rows<Record<string, number | string>>(
    db,
    sql`SELECT count(*) FILTER (WHERE due <= ${now.toISOString()}) AS due_now,
               count(*) FILTER (WHERE due < ${until.toISOString()}) AS due_today,
               count(*) AS cards,
               count(*) FILTER (WHERE state = 1) AS learning,
               count(*) FILTER (WHERE state = 2) AS review,
               count(*) FILTER (WHERE state = 3) AS relearning
        FROM descriptors.review_cards c
        WHERE c.user_id = ${userId} AND c.language = ${language}
          AND NOT EXISTS (SELECT 1 FROM descriptors.hidden h
                          WHERE h.user_id = c.user_id AND h.descriptor_id = c.descriptor_id)`,
  )
  return cards
}

/** The caller's answers today, and their reviews and recalls of the last 30 days. */
export async function answerCounts(
  db: Executor,
  userId: string,
  language: Language,
  since: Date,
  monthAgo: Date,
) {
  const [answers] = await rows<{
    today: string | number
    reviewed: string | number
    recalled: string | number
  }>(
    db,
    sql`SELECT count(*) FILTER (WHERE answered_at >= ${since.toISOString()}) AS today,
               count(*) FILTER (WHERE state = 2 AND answered_at >= ${monthAgo.toISOString()}) AS reviewed,
               count(*) FILTER (WHERE state = 2 AND rating > 1 AND answered_at >= ${monthAgo.toISOString()}) AS recalled
        FROM descriptors.review_answers
        WHERE user_id = ${userId} AND language = ${language}`,
  )
  return answers
}
