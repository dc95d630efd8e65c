// Spaced repetition of descriptors: FSRS (ts-fsrs) cards per user and word, kept on the server
// so that a review on the phone continues on the laptop. Answers are idempotent by the id the
// client gave them, and an answer given earlier than the card's last one (a device that was
// offline) is put in its place: the card is recomputed from all its answers in order.
import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { createEmptyCard, fsrs, Rating, State } from 'ts-fsrs'
import type { Card, Grade } from 'ts-fsrs'
import { unauthorized } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { isPostgresError } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import { membershipsOf } from './repository.ts'
import type { Descriptor } from './repository.ts'
import type { SharedVocabulary } from './shared-cache.ts'
import type { KnownCard, UserStates } from './user-cache.ts'
import type { Language } from './vocabulary.ts'

type Schemas = components['schemas']
type Executor = Pick<Database, 'execute'>

/** FSRS-6 defaults: 90 % retention, learning steps 1 and 10 minutes, fuzzed intervals. */
export const scheduler = fsrs({ enable_fuzz: true })

const RATINGS: Record<Schemas['ReviewRating'], Grade> = {
  again: Rating.Again,
  hard: Rating.Hard,
  good: Rating.Good,
  easy: Rating.Easy,
}
const STATES: Schemas['ReviewState'][] = ['new', 'learning', 'review', 'relearning']
const DEFAULT_NEW_PER_DAY = 20
const DEFAULT_LIMIT = 50
const DAY_MS = 86_400_000

interface CardRow {
  descriptor_id: string | number
  state: number
  due: Date | string
  stability: number
  difficulty: number
  elapsed_days: number
  scheduled_days: number
  learning_steps: number
  reps: number
  lapses: number
  last_review: Date | string | null
  first_review: Date | string
}

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[]
}

const toCard = (row: CardRow): Card => ({
  due: new Date(row.due),
  stability: Number(row.stability),
  difficulty: Number(row.difficulty),
  elapsed_days: row.elapsed_days,
  scheduled_days: row.scheduled_days,
  learning_steps: row.learning_steps,
  reps: row.reps,
  lapses: row.lapses,
  state: row.state as State,
  ...(row.last_review ? { last_review: new Date(row.last_review) } : {}),
})

export function scheduleOf(card: Card | null): Schemas['ReviewSchedule'] {
  if (!card || card.state === State.New)
    return {
      state: 'new',
      due: null,
      stability: 0,
      difficulty: 0,
      reps: 0,
      lapses: 0,
      lastReview: null,
    }
  return {
    state: STATES[card.state] ?? 'review',
    due: card.due.toISOString(),
    stability: card.stability,
    difficulty: card.difficulty,
    reps: card.reps,
    lapses: card.lapses,
    lastReview: card.last_review ? card.last_review.toISOString() : null,
  }
}

/** When the card would be due again for each rating, answered at `now`. */
function nextDue(card: Card | null, now: Date): Schemas['ReviewCard']['next'] {
  const preview = scheduler.repeat(card ?? createEmptyCard(now), now)
  const at = (grade: Grade) => preview[grade].card.due.toISOString()
  return {
    again: at(Rating.Again),
    hard: at(Rating.Hard),
    good: at(Rating.Good),
    easy: at(Rating.Easy),
  }
}

const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))

/** The caller's local midnight if given and sane (within the last two days), else UTC's. */
function dayStart(given: string | undefined, now: Date): Date {
  const at = given ? new Date(given) : null
  if (at && at.getTime() <= now.getTime() && now.getTime() - at.getTime() < 2 * DAY_MS) return at
  return startOfUtcDay(now)
}

async function saveCard(
  tx: Executor,
  userId: string,
  descriptorId: number,
  language: Language,
  card: Card,
  firstReview: Date,
) {
  await tx.execute(sql`
    INSERT INTO descriptors.review_cards
      (user_id, descriptor_id, language, state, due, stability, difficulty, elapsed_days,
       scheduled_days, learning_steps, reps, lapses, last_review, first_review)
    VALUES (${userId}, ${descriptorId}, ${language}, ${card.state}, ${card.due.toISOString()},
       ${card.stability}, ${card.difficulty}, ${card.elapsed_days}, ${card.scheduled_days},
       ${card.learning_steps}, ${card.reps}, ${card.lapses},
       ${card.last_review?.toISOString() ?? null}, ${firstReview.toISOString()})
    ON CONFLICT (user_id, descriptor_id) DO UPDATE SET
      state = EXCLUDED.state, due = EXCLUDED.due, stability = EXCLUDED.stability,
      difficulty = EXCLUDED.difficulty, elapsed_days = EXCLUDED.elapsed_days,
      scheduled_days = EXCLUDED.scheduled_days, learning_steps = EXCLUDED.learning_steps,
      reps = EXCLUDED.reps, lapses = EXCLUDED.lapses, last_review = EXCLUDED.last_review,
      first_review = EXCLUDED.first_review`)
}

/** Writes the card an answer made, unless the stored card is no longer at `expectedReps`. */
function cardUpsert(
  userId: string,
  descriptorId: number,
  language: Language,
  card: Card,
  firstReview: Date,
  expectedReps: number,
): SQL {
  return sql`
    INSERT INTO descriptors.review_cards
      (user_id, descriptor_id, language, state, due, stability, difficulty, elapsed_days,
       scheduled_days, learning_steps, reps, lapses, last_review, first_review)
    SELECT ${userId}, ${descriptorId}, ${language}, ${card.state}, ${card.due.toISOString()}::timestamptz,
       ${card.stability}::float8, ${card.difficulty}::float8, ${card.elapsed_days}::int,
       ${card.scheduled_days}::int, ${card.learning_steps}::int, ${card.reps}::int, ${card.lapses}::int,
       ${card.last_review?.toISOString() ?? null}::timestamptz, ${firstReview.toISOString()}::timestamptz
    WHERE EXISTS (SELECT 1 FROM answer)
      AND (${expectedReps}::int = 0 OR EXISTS (
        SELECT 1 FROM descriptors.review_cards
        WHERE user_id = ${userId} AND descriptor_id = ${descriptorId}))
    ON CONFLICT (user_id, descriptor_id) DO UPDATE SET
      state = EXCLUDED.state, due = EXCLUDED.due, stability = EXCLUDED.stability,
      difficulty = EXCLUDED.difficulty, elapsed_days = EXCLUDED.elapsed_days,
      scheduled_days = EXCLUDED.scheduled_days, learning_steps = EXCLUDED.learning_steps,
      reps = EXCLUDED.reps, lapses = EXCLUDED.lapses, last_review = EXCLUDED.last_review
    WHERE descriptors.review_cards.reps = ${expectedReps}
    RETURNING 1`
}

/** The card as its answers make it, in the order they were given; each answer's prior state noted. */
async function replay(tx: Executor, userId: string, descriptorId: number) {
  const answers = await rows<{
    id: string
    rating: number
    state: number
    answered_at: Date | string
  }>(
    tx,
    sql`SELECT id, rating, state, answered_at FROM descriptors.review_answers
        WHERE user_id = ${userId} AND descriptor_id = ${descriptorId}
        ORDER BY answered_at, received_at, id`,
  )
  const first = new Date(answers[0]?.answered_at ?? Date.now())
  let card = createEmptyCard(first)
  for (const answer of answers) {
    if (answer.state !== card.state) {
      await tx.execute(sql`
        UPDATE descriptors.review_answers SET state = ${card.state}
        WHERE user_id = ${userId} AND id = ${answer.id}`)
    }
    card = scheduler.next(card, new Date(answer.answered_at), answer.rating as Grade).card
  }
  return { card, first }
}

export function reviewHandlers(
  db: Database,
  shared: SharedVocabulary,
  users: UserStates,
): Pick<Handlers, 'getReviewQueue' | 'answerReviews' | 'getReviewStats'> {
  return {
    getReviewQueue: async (request) => {
      const user = request.user
      if (!user) throw unauthorized()
      const body = request.body as Schemas['ReviewQueueRequest']
      const now = new Date()
      const since = dayStart(body.dayStartsAt, now)
      const epoch = users.cardEpoch
      const [snapshot, mine, cards] = await Promise.all([
        shared.snapshot(body.language),
        users.get(user.id, body.language),
        rows<CardRow>(
          db,
          sql`SELECT * FROM descriptors.review_cards
              WHERE user_id = ${user.id} AND language = ${body.language}`,
        ),
      ])
      const ownById = new Map(mine.custom.map((d) => [d.api.id, d]))
      const descriptorOf = (id: number) => snapshot.find(id) ?? ownById.get(id)
      const carded = new Set(cards.map((c) => Number(c.descriptor_id)))
      const due = cards
        .filter((c) => new Date(c.due) <= now && !mine.hidden.has(Number(c.descriptor_id)))
        .sort((a, b) => new Date(a.due).getTime() - new Date(b.due).getTime())
        .flatMap((row) => {
          const descriptor = descriptorOf(Number(row.descriptor_id))
          return descriptor
            ? [{ descriptor, card: toCard(row), first: new Date(row.first_review) }]
            : []
        })
      const newToday = cards.filter((c) => new Date(c.first_review) >= since).length

      const categories = new Set([...body.gestaltIds, ...body.perceptionIds])
      const stages = new Set(body.stages)
      const fresh: Descriptor[] = []
      if (categories.size > 0) {
        const own = mine.custom.filter((d) =>
          membershipsOf(d).some((m) => categories.has(m.categoryId) && stages.has(m.stage)),
        )
        for (const d of [...snapshot.pool(categories, stages, mine.hidden), ...own])
          if (!carded.has(d.api.id)) fresh.push(d)
      }
      const limit = body.limit ?? DEFAULT_LIMIT
      const newRoom = Math.max(0, (body.newPerDay ?? DEFAULT_NEW_PER_DAY) - newToday)
      const chosen = [
        ...due.slice(0, limit),
        ...fresh
          .slice(0, Math.min(newRoom, Math.max(0, limit - due.length)))
          .map((descriptor) => ({ descriptor, card: null, first: null })),
      ]
      // The answers to these cards will come soon: they need no read then.
      users.rememberCards(
        user.id,
        epoch,
        chosen.map(({ descriptor, card, first }) => [
          descriptor.api.id,
          { language: body.language, card, first },
        ]),
      )
      const glosses = await glossesOf(
        db,
        body.language,
        chosen.map((c) => c.descriptor.api.id),
      )
      return {
        cards: chosen.map(({ descriptor, card }) => ({
          descriptor: descriptor.api,
          gloss: glosses.get(descriptor.api.id) ?? null,
          schedule: scheduleOf(card),
          next: nextDue(card, now),
        })),
        dueCount: due.length,
        newCount: fresh.length,
        newToday,
        serverTime: now.toISOString(),
      }
    },

    answerReviews: async (request) => {
      const user = request.user
      if (!user) throw unauthorized()
      const { answers } = request.body as Schemas['ReviewAnswers']
      const now = new Date()
      const ids = [...new Set(answers.map((a) => a.descriptorId))]
      const epoch = users.cardEpoch
      // The cards a queue of this process just showed need no read; a kept card that is behind
      // the database is caught by the write's repetitions check below.
      const known = ids.map((id) => users.knownCard(user.id, id))
      const words = known.every((k) => k !== undefined)
        ? new Map(ids.map((id, i) => [id, known[i] as KnownCard]))
        : await reviewableWords(db, user.id, ids)
      const results: Schemas['ReviewResult'][] = []
      const gone = (answer: Schemas['ReviewAnswer']) =>
        results.push({
          id: answer.id,
          status: 'gone',
          descriptorId: answer.descriptorId,
          schedule: null,
        })
      for (const answer of answers) {
        const word = words.get(answer.descriptorId)
        if (!word) {
          gone(answer)
          continue
        }
        const before = word.card
        const grade = RATINGS[answer.rating]
        // Never in the future: the clock of a device may run ahead.
        const at = new Date(Math.min(new Date(answer.answeredAt).getTime(), now.getTime()))
        const inOrder = !before?.last_review || at >= before.last_review
        const next = inOrder ? scheduler.next(before ?? createEmptyCard(at), at, grade).card : null
        const first = word.first ?? at
        // One statement: the answer, and the card it makes unless the card changed since it
        // was read (its reps count every answer). Anything else is put right by a replay.
        let outcome: { answered: string | number; saved: string | number } | undefined
        try {
          ;[outcome] = await rows<{ answered: string | number; saved: string | number }>(
            db,
            sql`WITH answer AS (
                  INSERT INTO descriptors.review_answers
                    (user_id, id, descriptor_id, language, rating, state, answered_at, duration_ms)
                  VALUES (${user.id}, ${answer.id}, ${answer.descriptorId}, ${word.language}, ${grade},
                    ${before?.state ?? State.New}, ${at.toISOString()}, ${answer.durationMs ?? null})
                  ON CONFLICT (user_id, id) DO NOTHING
                  RETURNING 1
                ), card AS (
                  ${next ? cardUpsert(user.id, answer.descriptorId, word.language, next, first, before?.reps ?? 0) : sql`SELECT 1 WHERE false`}
                )
                SELECT (SELECT count(*) FROM answer) AS answered, (SELECT count(*) FROM card) AS saved`,
          )
        } catch (err) {
          // A kept word deleted since (its row is gone, and its answers with it).
          if (isPostgresError(err, '23503')) {
            words.delete(answer.descriptorId)
            gone(answer)
            continue
          }
          throw err
        }
        if (Number(outcome?.answered) === 0) {
          results.push({
            id: answer.id,
            status: 'duplicate',
            descriptorId: answer.descriptorId,
            schedule: scheduleOf(before),
          })
          continue
        }
        let card = next
        let firstReview = first
        if (!card || Number(outcome?.saved) === 0) {
          // Given before the card's last answer, or the card changed meanwhile (another device):
          // the card is what all its answers make, in the order they were given.
          ;({ card, first: firstReview } = await db.transaction(async (tx) => {
            await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`reviews:${user.id}`}))`)
            const replayed = await replay(tx, user.id, answer.descriptorId)
            await saveCard(
              tx,
              user.id,
              answer.descriptorId,
              word.language,
              replayed.card,
              replayed.first,
            )
            return replayed
          }))
        }
        word.card = card
        word.first = firstReview
        results.push({
          id: answer.id,
          status: 'applied',
          descriptorId: answer.descriptorId,
          schedule: scheduleOf(card),
        })
      }
      users.rememberCards(user.id, epoch, words)
      return { results }
    },

    getReviewStats: async (request) => {
      const user = request.user
      if (!user) throw unauthorized()
      const query = request.query as { language: Language; dayStartsAt?: string }
      const now = new Date()
      const since = dayStart(query.dayStartsAt, now)
      const until = new Date(since.getTime() + DAY_MS)
      const [cards] = await rows<Record<string, number | string>>(
        db,
        sql`SELECT count(*) FILTER (WHERE due <= ${now.toISOString()}) AS due_now,
                   count(*) FILTER (WHERE due < ${until.toISOString()}) AS due_today,
                   count(*) AS cards,
                   count(*) FILTER (WHERE state = 1) AS learning,
                   count(*) FILTER (WHERE state = 2) AS review,
                   count(*) FILTER (WHERE state = 3) AS relearning
            FROM descriptors.review_cards c
            WHERE c.user_id = ${user.id} AND c.language = ${query.language}
              AND NOT EXISTS (SELECT 1 FROM descriptors.hidden h
                              WHERE h.user_id = c.user_id AND h.descriptor_id = c.descriptor_id)`,
      )
      const [answers] = await rows<{
        today: string | number
        reviewed: string | number
        recalled: string | number
      }>(
        db,
        sql`SELECT count(*) FILTER (WHERE answered_at >= ${since.toISOString()}) AS today,
                   count(*) FILTER (WHERE state = 2 AND answered_at >= ${new Date(now.getTime() - 30 * DAY_MS).toISOString()}) AS reviewed,
                   count(*) FILTER (WHERE state = 2 AND rating > 1 AND answered_at >= ${new Date(now.getTime() - 30 * DAY_MS).toISOString()}) AS recalled
            FROM descriptors.review_answers
            WHERE user_id = ${user.id} AND language = ${query.language}`,
      )
      const n = (v: unknown) => Number(v ?? 0)
      const reviewed = n(answers?.reviewed)
      return {
        language: query.language,
        dueNow: n(cards?.due_now),
        dueToday: n(cards?.due_today),
        cards: n(cards?.cards),
        learning: n(cards?.learning),
        review: n(cards?.review),
        relearning: n(cards?.relearning),
        answersToday: n(answers?.today),
        retention: reviewed > 0 ? n(answers?.recalled) / reviewed : null,
      }
    },
  }
}

/**
 * One read: the words the caller may review (shared ones and their own; another user's pending
 * word is not theirs), each with its card if it has one.
 */
async function reviewableWords(db: Executor, userId: string, ids: number[]) {
  const found = await rows<
    Omit<CardRow, 'descriptor_id'> & {
      id: string | number
      language: Language
      carded: boolean
    }
  >(
    db,
    sql`SELECT d.id, d.language, c.user_id IS NOT NULL AS carded, c.state, c.due, c.stability,
               c.difficulty, c.elapsed_days, c.scheduled_days, c.learning_steps, c.reps,
               c.lapses, c.last_review, c.first_review
        FROM descriptors.descriptors d
        LEFT JOIN descriptors.review_cards c ON c.descriptor_id = d.id AND c.user_id = ${userId}
        WHERE d.id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
          AND (d.status IN ('system', 'approved') OR d.created_by = ${userId})`,
  )
  return new Map<number, KnownCard>(
    found.map((r) => [
      Number(r.id),
      {
        language: r.language,
        card: r.carded ? toCard({ ...r, descriptor_id: r.id }) : null,
        first: r.carded ? new Date(r.first_review) : null,
      },
    ]),
  )
}

/** The English word of each shipped concept, for cards in another language. */
async function glossesOf(db: Database, language: Language, ids: number[]) {
  const glosses = new Map<number, string>()
  if (language === 'en' || ids.length === 0) return glosses
  const found = await rows<{ id: string | number; word: string }>(
    db,
    sql`SELECT d.id, en.word FROM descriptors.descriptors d
        JOIN descriptors.descriptors en
          ON en.concept_id = d.concept_id AND en.language = 'en' AND NOT en.is_custom
        WHERE d.id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  )
  for (const row of found) glosses.set(Number(row.id), row.word)
  return glosses
}
