// Spaced repetition of descriptors: FSRS (ts-fsrs) cards per user and word, kept on the server
// so that a review on the phone continues on the laptop. Answers are idempotent by the id the
// client gave them, and an answer given earlier than the card's last one (a device that was
// offline) is put in its place: the card is recomputed from all its answers in order, once per
// request however its answers are ordered, and each request's work is bounded.
import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { createEmptyCard, fsrs, Rating, State } from 'ts-fsrs'
import type { Card, Grade } from 'ts-fsrs'
import { AppError, unauthorized } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { isPostgresError } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import { membershipsOf } from './repository.ts'
import type { Descriptor } from './repository.ts'
import type { SharedVocabulary } from './shared-cache.ts'
import type { KnownCard, UserStates } from './user-cache.ts'
import type { Language } from './vocabulary.ts'
import { fromPostgresTimestamp } from './timestamps.ts'

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
  due: fromPostgresTimestamp(row.due),
  stability: Number(row.stability),
  difficulty: Number(row.difficulty),
  elapsed_days: row.elapsed_days,
  scheduled_days: row.scheduled_days,
  learning_steps: row.learning_steps,
  reps: row.reps,
  lapses: row.lapses,
  state: row.state as State,
  ...(row.last_review ? { last_review: fromPostgresTimestamp(row.last_review) } : {}),
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

/** The most answers to one word a request records (the earliest); the client sends the rest again. */
export const ANSWERS_PER_WORD = 50
/**
 * The most answers a request may have to step through again: each word counts its stored
 * answers and its new ones, as if its card were replayed (whether it will be is known only once
 * written: another device may have changed it). Words beyond it wait for the next request.
 */
export const REPLAY_BUDGET = 20_000
/**
 * No answer is older than this. The service cannot know when an account was made (the token
 * does not say), and a user's first stored answer is no bound (another device's queue may hold
 * older ones), so the bound is the start of the year the reviews began (their tables date from
 * November 2026): no answer can be older.
 */
const EARLIEST_ANSWER = Date.parse('2026-01-01T00:00:00.000Z')
/** A device's clock may run this far ahead: such an answer counts as given now. */
const CLOCK_SKEW_MS = 5 * 60_000

type Answer = Schemas['ReviewAnswer']

/** An RFC 3339 time as an instant; a leap second (`:60`) is the instant after `:59`. */
function instantOf(text: string): number {
  const t = Date.parse(text)
  return Number.isNaN(t) ? Date.parse(text.replace(/(T\d{2}:\d{2}:)60/i, '$159')) + 1000 : t
}

/** When each answer was given, or a 400 naming those outside the window. */
function answerTimes(answers: Answer[], now: Date): Date[] {
  const latest = now.getTime() + CLOCK_SKEW_MS
  const times = answers.map((a) => instantOf(a.answeredAt))
  const outside = answers.filter((_, i) => {
    const t = times[i] ?? Number.NaN
    return !(t >= EARLIEST_ANSWER && t <= latest)
  })
  if (outside.length > 0)
    throw new AppError(
      'answered_at_out_of_range',
      400,
      `An answer's answeredAt must lie between ${new Date(EARLIEST_ANSWER).toISOString()} and five minutes from now (the server's clock)`,
      {
        earliest: new Date(EARLIEST_ANSWER).toISOString(),
        latest: new Date(latest).toISOString(),
        answers: outside.slice(0, 20).map((a) => ({ id: a.id, answeredAt: a.answeredAt })),
      },
    )
  return times.map((t) => new Date(Math.min(t ?? 0, now.getTime())))
}

interface Given {
  answer: Answer
  at: Date
  grade: Grade
}

/**
 * The answers a request records, by word and in time order (ties by id, as a replay orders
 * them): each id once, at most ANSWERS_PER_WORD per word, the earliest. The later ones are left
 * out of the results, so an offline queue keeps and sends them again: none is lost, and each
 * request's work on a word stays bounded.
 */
function recordable(answers: Answer[], times: Date[]) {
  const firstOfId = new Map<string, Given>()
  const byWord = new Map<number, Given[]>()
  answers.forEach((answer, i) => {
    if (firstOfId.has(answer.id)) return
    const given = { answer, at: times[i] ?? new Date(), grade: RATINGS[answer.rating] }
    firstOfId.set(answer.id, given)
    const list = byWord.get(answer.descriptorId) ?? []
    list.push(given)
    byWord.set(answer.descriptorId, list)
  })
  const recorded = new Set<Given>()
  for (const [word, list] of byWord) {
    list.sort((a, b) => a.at.getTime() - b.at.getTime() || byId(a.answer.id, b.answer.id))
    const kept = list.slice(0, ANSWERS_PER_WORD)
    byWord.set(word, kept)
    for (const given of kept) recorded.add(given)
  }
  // In the order sent; a repeated id stands for the answer it repeats.
  const order = answers.flatMap((answer) => {
    const given = firstOfId.get(answer.id)
    return given && recorded.has(given)
      ? [{ answer: given.answer, repeat: given.answer !== answer }]
      : []
  })
  return { byWord, order }
}

/**
 * The words whose cards this request can afford to replay, in the order it names them; a word
 * whose answers do not fit is left out of the results, so its answers are sent again (one
 * with more than REPLAY_BUDGET answers takes no more: no one answers a word that often).
 */
function withinReplayBudget(byWord: Map<number, Given[]>, words: Map<number, KnownCard>) {
  const taken = new Map<number, Given[]>()
  let spent = 0
  for (const [id, given] of byWord) {
    const word = words.get(id)
    const cost = word ? (word.card?.reps ?? 0) + given.length : 0
    if (spent + cost > REPLAY_BUDGET) continue
    spent += cost
    taken.set(id, given)
  }
  return taken
}

const byId = (a: string, b: string) => {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  return x < y ? -1 : x > y ? 1 : 0
}

/** A card as its answers made it, and when it was first answered. */
interface Made {
  card: Card
  first: Date
}

/** What a word's new answers make of its card, when they all come after its last review. */
interface Stepped extends Made {
  /** Each answer's card state just before it. */
  states: State[]
}

function stepThrough(word: KnownCard, given: Given[]): Stepped | null {
  const last = word.card?.last_review
  const [earliest] = given
  if (!earliest || (last && earliest.at < last)) return null
  let card: Card = word.card ?? createEmptyCard(earliest.at)
  const states: State[] = []
  for (const g of given) {
    states.push(card.state)
    card = scheduler.next(card, g.at, g.grade).card
  }
  return { card, first: word.first ?? earliest.at, states }
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

/**
 * One statement: every answer, and each card its answers made when they came after the card's
 * last review, unless the card changed since it was read (its reps count every answer) or one of
 * its answers was recorded before. Anything else is put right by a replay.
 */
function recordStatement(
  userId: string,
  answers: { given: Given; language: Language; state: State }[],
  made: { id: number; language: Language; card: Card; first: Date; answers: number }[],
): SQL {
  const column = <T>(f: (a: (typeof answers)[number]) => T) => sql.param(answers.map(f))
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
        (user_id, id, descriptor_id, language, rating, state, answered_at, duration_ms)
      SELECT ${userId}, a.* FROM unnest(
        ${column((a) => a.given.answer.id)}::uuid[], ${column((a) => a.given.answer.descriptorId)}::bigint[],
        ${column((a) => a.language)}::text[], ${column((a) => a.given.grade)}::smallint[],
        ${column((a) => a.state)}::smallint[], ${column((a) => a.given.at.toISOString())}::timestamptz[],
        ${column((a) => a.given.answer.durationMs ?? null)}::int[])
        AS a(id, descriptor_id, language, rating, state, answered_at, duration_ms)
      ON CONFLICT (user_id, id) DO NOTHING
      RETURNING id, descriptor_id
    ), card AS (${cards})
    SELECT (SELECT coalesce(json_agg(id), '[]') FROM answer) AS answered,
           (SELECT coalesce(json_agg(descriptor_id), '[]') FROM card) AS saved`
}

/** Records the answers to the words that exist in one statement: which were new, which cards saved. */
async function record(
  db: Database,
  userId: string,
  byWord: Map<number, Given[]>,
  words: Map<number, KnownCard>,
) {
  const answers: { given: Given; language: Language; state: State }[] = []
  const made: { id: number; language: Language; card: Card; first: Date; answers: number }[] = []
  const stepped = new Map<number, Stepped>()
  for (const [id, given] of byWord) {
    const word = words.get(id)
    if (!word) continue
    const steps = stepThrough(word, given)
    if (steps) {
      stepped.set(id, steps)
      made.push({
        id,
        language: word.language,
        card: steps.card,
        first: steps.first,
        answers: given.length,
      })
    }
    given.forEach((g, i) =>
      answers.push({
        given: g,
        language: word.language,
        state: steps?.states[i] ?? word.card?.state ?? State.New,
      }),
    )
  }
  const [row] =
    answers.length > 0
      ? await rows<{ answered: string[]; saved: (string | number)[] }>(
          db,
          recordStatement(userId, answers, made),
        )
      : []
  return {
    answered: new Set((row?.answered ?? []).map((id) => id.toLowerCase())),
    saved: new Set((row?.saved ?? []).map(Number)),
    stepped,
  }
}

/**
 * These cards as all their answers make them, in the order they were given: one read of their
 * history, one pass through it, one write of the states answers were given in and one of the
 * cards. Under the user's lock, so two replays of one card never interleave.
 */
async function replay(db: Database, userId: string, words: Map<number, KnownCard>) {
  const ids = [...words.keys()]
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`reviews:${userId}`}))`)
    const history = await rows<{
      id: string
      descriptor_id: string | number
      rating: number
      state: number
      answered_at: string
    }>(
      tx,
      sql`SELECT id, descriptor_id, rating, state, answered_at FROM descriptors.review_answers
          WHERE user_id = ${userId} AND descriptor_id = ANY(${sql.param(ids)}::bigint[])
          ORDER BY descriptor_id, answered_at, received_at, id`,
    )
    const fixes: { id: string; state: State }[] = []
    const made = new Map<number, Made>()
    for (const answer of history) {
      const id = Number(answer.descriptor_id)
      const at = fromPostgresTimestamp(answer.answered_at)
      const sofar = made.get(id) ?? { card: createEmptyCard(at), first: at }
      if (answer.state !== sofar.card.state) fixes.push({ id: answer.id, state: sofar.card.state })
      sofar.card = scheduler.next(sofar.card, at, answer.rating as Grade).card
      made.set(id, sofar)
    }
    if (fixes.length > 0)
      await tx.execute(sql`
        UPDATE descriptors.review_answers r SET state = f.state
        FROM unnest(${sql.param(fixes.map((f) => f.id))}::uuid[],
                    ${sql.param(fixes.map((f) => f.state))}::smallint[]) AS f(id, state)
        WHERE r.user_id = ${userId} AND r.id = f.id`)
    const cards = [...made].flatMap(([id, { card, first }]) => {
      const word = words.get(id)
      return word ? [{ id, language: word.language, card, first }] : []
    })
    if (cards.length > 0)
      await tx.execute(sql`
        INSERT INTO descriptors.review_cards (${cardColumns})
        SELECT ${userId}, m.* FROM ${cardRows(cards)}
        ON CONFLICT (user_id, descriptor_id) DO UPDATE SET ${cardUpdate},
          first_review = EXCLUDED.first_review`)
    return made
  })
}

/**
 * A request's answers, recorded: each card computed once, by stepping through its new answers
 * when they all come after its last review, else by one replay of its whole history.
 */
async function recordAnswers(
  db: Database,
  users: UserStates,
  userId: string,
  answers: Answer[],
): Promise<Schemas['ReviewResult'][]> {
  const { byWord, order } = recordable(answers, answerTimes(answers, new Date()))
  const ids = [...byWord.keys()]
  const epoch = users.cardEpoch
  // The cards a queue of this process just showed need no read; a kept card that is behind
  // the database is caught by the write's repetitions check.
  const known = ids.map((id) => users.knownCard(userId, id))
  let words = known.every((k) => k !== undefined)
    ? new Map(ids.map((id, i) => [id, known[i] as KnownCard]))
    : await reviewableWords(db, userId, ids)
  let taken = withinReplayBudget(byWord, words)
  let recorded: Awaited<ReturnType<typeof record>>
  try {
    recorded = await record(db, userId, taken, words)
  } catch (err) {
    // A kept word deleted since (its row is gone, and its answers with it): read them all.
    if (!isPostgresError(err, '23503')) throw err
    words = await reviewableWords(db, userId, ids)
    taken = withinReplayBudget(byWord, words)
    recorded = await record(db, userId, taken, words)
  }
  const { answered, saved, stepped } = recorded
  // Given before a card's last answer, or the card changed meanwhile (another device): the
  // card is what all its answers make, in the order they were given.
  const stale = new Map(
    [...words].filter(
      ([id]) =>
        !saved.has(id) && taken.get(id)?.some((g) => answered.has(g.answer.id.toLowerCase())),
    ),
  )
  const replayed = stale.size > 0 ? await replay(db, userId, stale) : new Map<number, Made>()
  for (const [id, word] of words) {
    const made = saved.has(id) ? stepped.get(id) : replayed.get(id)
    if (!made) continue
    word.card = made.card
    word.first = made.first
  }
  users.rememberCards(userId, epoch, words)
  return order.flatMap(({ answer, repeat }) => {
    const word = words.get(answer.descriptorId)
    if (word && !taken.has(answer.descriptorId)) return []
    if (!word)
      return { id: answer.id, status: 'gone', descriptorId: answer.descriptorId, schedule: null }
    const applied = !repeat && answered.has(answer.id.toLowerCase())
    return {
      id: answer.id,
      status: applied ? 'applied' : 'duplicate',
      descriptorId: answer.descriptorId,
      schedule: scheduleOf(word.card),
    }
  })
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
        .map((row) => ({ row, due: fromPostgresTimestamp(row.due) }))
        .filter(({ row, due }) => due <= now && !mine.hidden.has(Number(row.descriptor_id)))
        .sort((a, b) => a.due.getTime() - b.due.getTime())
        .flatMap(({ row }) => {
          const descriptor = descriptorOf(Number(row.descriptor_id))
          return descriptor
            ? [{ descriptor, card: toCard(row), first: fromPostgresTimestamp(row.first_review) }]
            : []
        })
      const newToday = cards.filter((c) => fromPostgresTimestamp(c.first_review) >= since).length

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
      return { results: await recordAnswers(db, users, user.id, answers) }
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
        first: r.carded ? fromPostgresTimestamp(r.first_review) : null,
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
