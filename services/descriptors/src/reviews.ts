// Spaced repetition of descriptors: FSRS (ts-fsrs) cards per user and word, kept on the server
// so that a review on the phone continues on the laptop. Answers are idempotent by the id the
// client gave them, and an answer given earlier than the card's last one (a device that was
// offline) is put in its place: the card is recomputed from all its answers in order, once per
// request however its answers are ordered, and each request's work is bounded.
import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { createEmptyCard, fsrs, Rating, State } from 'ts-fsrs'
import type { Card, Grade } from 'ts-fsrs'
import { AppError, defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { isPostgresError, rows } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import { fromPostgresTimestamp } from './db/timestamps.ts'
import type { SharedVocabulary } from './vocabulary/shared-cache.ts'
import type { Language } from './vocabulary/shipped.ts'
import type { KnownCard, UserStates } from './vocabulary/user-cache.ts'
import { membershipsOf } from './vocabulary/views.ts'
import type { Descriptor } from './vocabulary/views.ts'

type Schemas = components['schemas']

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
 * The most answers a request steps through with ts-fsrs: its new answers, and the stored answers
 * a replay steps through again. Words beyond it wait for the next request. At 500 a batch holds
 * the service's one thread for at most about 10 ms at a time (docs/decisions.md, "a review
 * batch's share of the service"); a batch of 500 answers in time order still fits.
 */
export const STEPS_PER_REQUEST = 500
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
 * The words this request can afford to step through, in the order it names them: each costs its
 * new answers and the stored ones after the earliest of them (`behind`: what its replay steps
 * through again, from the card that answer left). A word whose answers do not fit is left out of
 * the results, so its answers are sent again; an answer placed before more than
 * STEPS_PER_REQUEST stored answers never fits (no device stays offline through that many
 * answers to one word), and answers after them still do, however many the word holds.
 */
function withinStepBudget(
  byWord: Map<number, Given[]>,
  words: Map<number, KnownCard>,
  behind: Map<number, number>,
) {
  const taken = new Map<number, Given[]>()
  let spent = 0
  for (const [id, given] of byWord) {
    const cost = words.has(id) ? (behind.get(id) ?? 0) + given.length : 0
    if (spent + cost > STEPS_PER_REQUEST) continue
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
  /** The card each answer left. */
  cards: Card[]
}

/** Whether these answers (in time order) all come after the card's last review. */
const comeAfter = (word: KnownCard, given: Given[]) => {
  const last = word.card?.last_review
  return !last || (given[0]?.at ?? last) >= last
}

function stepThrough(word: KnownCard, given: Given[]): Stepped | null {
  const [earliest] = given
  if (!earliest || !comeAfter(word, given)) return null
  let card: Card = word.card ?? createEmptyCard(earliest.at)
  const states: State[] = []
  const cards: Card[] = []
  for (const g of given) {
    states.push(card.state)
    card = scheduler.next(card, g.at, g.grade).card
    cards.push(card)
  }
  return { card, first: word.first ?? earliest.at, states, cards }
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

/** The card a stored answer left, read back: ts-fsrs's card after it, to the bit. */
interface AfterRow {
  after_state: number
  after_due: Date | string
  after_stability: number
  after_difficulty: number
  after_elapsed_days: number
  after_scheduled_days: number
  after_learning_steps: number
  after_reps: number
  after_lapses: number
}

const afterCard = (row: AfterRow, answeredAt: Date): Card => ({
  due: fromPostgresTimestamp(row.after_due),
  stability: Number(row.after_stability),
  difficulty: Number(row.after_difficulty),
  elapsed_days: row.after_elapsed_days,
  scheduled_days: row.after_scheduled_days,
  learning_steps: row.after_learning_steps,
  reps: row.after_reps,
  lapses: row.after_lapses,
  state: row.after_state as State,
  last_review: answeredAt,
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
function recordStatement(
  userId: string,
  answers: { given: Given; language: Language; state: State; after: Card | null }[],
  made: { id: number; language: Language; card: Card; first: Date; answers: number }[],
): SQL {
  const answerRows = answers.map((a) => ({
    id: a.given.answer.id,
    descriptor_id: a.given.answer.descriptorId,
    language: a.language,
    rating: a.given.grade,
    state: a.state,
    answered_at: a.given.at.toISOString(),
    duration_ms: a.given.answer.durationMs ?? null,
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

/**
 * Records the answers to the words that exist in one statement: which were new, which cards
 * saved. Each answer keeps the card it left when its word's answers come after its card; the
 * others wait for their replay (in the same transaction when it was planned).
 */
async function record(
  db: Executor,
  userId: string,
  byWord: Map<number, Given[]>,
  words: Map<number, KnownCard>,
) {
  const answers: { given: Given; language: Language; state: State; after: Card | null }[] = []
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
        after: steps?.cards[i] ?? null,
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

/** The user's replays one at a time, so two replays of one card never interleave. */
const lockReplays = (tx: Executor, userId: string) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`reviews:${userId}`}))`)

/**
 * These cards as all their answers make them, in the order they were given, from the card the
 * answer just before `since` left (each word's earliest new answer): one read of the answers from
 * there, one pass through them, one write of the states and cards they left, one of the cards.
 * Within a transaction holding `lockReplays`.
 */
async function replay(
  tx: Executor,
  userId: string,
  words: Map<number, KnownCard>,
  since: Map<number, Date>,
) {
  const history = await rows<{
    id: string
    descriptor_id: string | number
    rating: number
    state: number
    answered_at: string
    first: string
    /** The checkpoint's card, on the checkpoint's row only. */
    checkpoint: AfterRow | null
  }>(
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
  const fixes: { id: string; state: State; after: Card }[] = []
  const made = new Map<number, Made>()
  for (const answer of history) {
    const id = Number(answer.descriptor_id)
    const at = fromPostgresTimestamp(answer.answered_at)
    if (answer.checkpoint) {
      made.set(id, {
        card: afterCard(answer.checkpoint, at),
        first: fromPostgresTimestamp(answer.first),
      })
      continue
    }
    const sofar = made.get(id) ?? { card: createEmptyCard(at), first: at }
    const state = sofar.card.state
    sofar.card = scheduler.next(sofar.card, at, answer.rating as Grade).card
    fixes.push({ id: answer.id, state, after: sofar.card })
    made.set(id, sofar)
  }
  if (fixes.length > 0)
    await tx.execute(sql`
      UPDATE descriptors.review_answers r SET state = f.state, after_state = f.after_state,
        after_due = f.after_due, after_stability = f.after_stability,
        after_difficulty = f.after_difficulty, after_elapsed_days = f.after_elapsed_days,
        after_scheduled_days = f.after_scheduled_days,
        after_learning_steps = f.after_learning_steps, after_reps = f.after_reps,
        after_lapses = f.after_lapses
      FROM jsonb_to_recordset(${JSON.stringify(
        fixes.map((f) => ({ id: f.id, state: f.state, ...afterFields(f.after) })),
      )}::jsonb) AS f(id uuid, state smallint, ${afterTypes})
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
}

/**
 * The taken answers recorded, and each card whose answers do not simply follow it replayed. When
 * a replay is planned (answers placed before the card's last review), the answers and their
 * replay are one transaction under the user's lock; a replay nobody planned (the card changed
 * meanwhile: another device) follows the recording.
 */
async function write(
  db: Database,
  userId: string,
  taken: Map<number, Given[]>,
  words: Map<number, KnownCard>,
) {
  const stale = (recorded: Awaited<ReturnType<typeof record>>) => {
    const since = new Map<number, Date>()
    for (const [id, given] of taken) {
      const answered = given.filter((g) => recorded.answered.has(g.answer.id.toLowerCase()))
      const [earliest] = answered
      if (earliest && words.has(id) && !recorded.saved.has(id)) since.set(id, earliest.at)
    }
    return since
  }
  const planned = [...taken].some(([id, given]) => {
    const word = words.get(id)
    return word !== undefined && !comeAfter(word, given)
  })
  if (planned)
    return db.transaction(async (tx) => {
      await lockReplays(tx, userId)
      const recorded = await record(tx, userId, taken, words)
      const since = stale(recorded)
      const replayed =
        since.size > 0 ? await replay(tx, userId, words, since) : new Map<number, Made>()
      return { ...recorded, replayed }
    })
  const recorded = await record(db, userId, taken, words)
  const since = stale(recorded)
  const replayed =
    since.size > 0
      ? await db.transaction(async (tx) => {
          await lockReplays(tx, userId)
          return replay(tx, userId, words, since)
        })
      : new Map<number, Made>()
  return { ...recorded, replayed }
}

/**
 * A request's answers, recorded: each card computed once, by stepping through its new answers
 * when they all come after its last review, else by one replay from the card the answer just
 * before them left.
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
  // The cards a queue of this process just showed need no read when the answers follow them;
  // a kept card that is behind the database is caught by the write's repetitions check.
  const known = new Map(
    ids.flatMap((id) => {
      const card = users.knownCard(userId, id)
      return card ? [[id, card] as const] : []
    }),
  )
  const follow =
    known.size === ids.length &&
    [...known].every(([id, card]) => comeAfter(card, byWord.get(id) ?? []))
  const read = () => reviewableWords(db, userId, byWord)
  let { words, behind } = follow
    ? { words: known, behind: new Map<number, number>() }
    : await read()
  let taken = withinStepBudget(byWord, words, behind)
  let written: Awaited<ReturnType<typeof write>>
  try {
    written = await write(db, userId, taken, words)
  } catch (err) {
    // A kept word deleted since (its row is gone, and its answers with it): read them all.
    if (!isPostgresError(err, '23503')) throw err
    ;({ words, behind } = await read())
    taken = withinStepBudget(byWord, words, behind)
    written = await write(db, userId, taken, words)
  }
  const { answered, saved, stepped, replayed } = written
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
): Handlers {
  return defineHandlers('descriptors', {
    getReviewQueue: async ({ body, user }) => {
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

    answerReviews: async ({ body, user }) => {
      const { answers } = body
      return { results: await recordAnswers(db, users, user.id, answers) }
    },

    getReviewStats: async ({ query, user }) => {
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
  })
}

/**
 * One read: the words the caller may review (shared ones and their own; another user's pending
 * word is not theirs), each with its card if it has one, and how many stored answers a replay
 * from its earliest new answer would step through (counted up to one past the budget).
 */
async function reviewableWords(db: Executor, userId: string, byWord: Map<number, Given[]>) {
  const since = new Map([...byWord].map(([id, given]) => [id, given[0]?.at ?? new Date()]))
  const found = await rows<
    Omit<CardRow, 'descriptor_id'> & {
      id: string | number
      language: Language
      carded: boolean
      behind: string | number
    }
  >(
    db,
    sql`SELECT d.id, d.language, c.user_id IS NOT NULL AS carded, c.state, c.due, c.stability,
               c.difficulty, c.elapsed_days, c.scheduled_days, c.learning_steps, c.reps,
               c.lapses, c.last_review, c.first_review,
               (SELECT count(*) FROM (
                  SELECT 1 FROM descriptors.review_answers a
                  WHERE a.user_id = ${userId} AND a.descriptor_id = d.id AND ${fromCheckpoint('after it')}
                  LIMIT ${STEPS_PER_REQUEST + 1}) s) AS behind
        FROM ${wordsSince(since)}
        JOIN descriptors.descriptors d ON d.id = w.descriptor_id
        LEFT JOIN descriptors.review_cards c ON c.descriptor_id = d.id AND c.user_id = ${userId}
        LEFT JOIN LATERAL (${checkpoint(userId)}) k ON true
        WHERE d.status IN ('system', 'approved') OR d.created_by = ${userId}`,
  )
  return {
    words: new Map<number, KnownCard>(
      found.map((r) => [
        Number(r.id),
        {
          language: r.language,
          card: r.carded ? toCard({ ...r, descriptor_id: r.id }) : null,
          first: r.carded ? fromPostgresTimestamp(r.first_review) : null,
        },
      ]),
    ),
    behind: new Map(found.map((r) => [Number(r.id), Number(r.behind)])),
  }
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
