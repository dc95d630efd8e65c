// Spaced repetition of descriptors: FSRS (ts-fsrs) cards per user and word, kept on the server
// so that a review on the phone continues on the laptop. Answers are idempotent by the id the
// client gave them, and an answer given earlier than the card's last one (a device that was
// offline) is put in its place: the card is recomputed from all its answers in order, once per
// request however its answers are ordered, and each request's work is bounded.
import { createEmptyCard, fsrs, Rating, State } from 'ts-fsrs'
import type { Card, Grade } from 'ts-fsrs'
import { AppError } from '@crv/kit'
import type { AuthUser } from '@crv/kit'
import { isPostgresError, fromPostgresTimestamp } from '@crv/kit/db'
import type { Database, Executor } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { Deps } from '../deps.ts'
import type { Descriptor } from '../vocabulary/views.ts'
import { membershipsOf } from '../vocabulary/views.ts'
import type { Language } from '../vocabulary/shipped.ts'
import type { KnownCard, UserStates } from '../vocabulary/user-cache.ts'
import {
  answerCounts,
  cardCounts,
  cardsOf,
  englishWords,
  lockCards,
  lockReplays,
  recordRows,
  replayHistory,
  reviewableRows,
  saveReplay,
} from './repository.ts'
import type { AnswerRow, MadeCard } from './repository.ts'
import { afterCard, scheduleOf, toCard } from './views.ts'

type Schemas = components['schemas']

/** FSRS-6 defaults: 90 % retention, learning steps 1 and 10 minutes, fuzzed intervals. */
export const scheduler = fsrs({ enable_fuzz: true })

const RATINGS: Record<Schemas['ReviewRating'], Grade> = {
  again: Rating.Again,
  hard: Rating.Hard,
  good: Rating.Good,
  easy: Rating.Easy,
}
const DEFAULT_NEW_PER_DAY = 20
const DEFAULT_LIMIT = 50
const DAY_MS = 86_400_000

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
  const answers: AnswerRow[] = []
  const made: MadeCard[] = []
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
        id: g.answer.id,
        descriptorId: g.answer.descriptorId,
        rating: g.grade,
        answeredAt: g.at,
        durationMs: g.answer.durationMs,
        language: word.language,
        state: steps?.states[i] ?? word.card?.state ?? State.New,
        after: steps?.cards[i] ?? null,
      }),
    )
  }
  const row = answers.length > 0 ? await recordRows(db, userId, answers, made) : undefined
  return {
    answered: new Set((row?.answered ?? []).map((id) => id.toLowerCase())),
    saved: new Set((row?.saved ?? []).map(Number)),
    stepped,
  }
}

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
  await lockCards(tx, userId, [...since.keys()])
  const history = await replayHistory(tx, userId, since)
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
  const cards = [...made].flatMap(([id, { card, first }]) => {
    const word = words.get(id)
    return word ? [{ id, language: word.language, card, first }] : []
  })
  await saveReplay(tx, userId, fixes, cards)
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

/**
 * One read: the words the caller may review (shared ones and their own; another user's pending
 * word is not theirs), each with its card if it has one, and how many stored answers a replay
 * from its earliest new answer would step through (counted up to one past the budget).
 */
async function reviewableWords(db: Executor, userId: string, byWord: Map<number, Given[]>) {
  const since = new Map([...byWord].map(([id, given]) => [id, given[0]?.at ?? new Date()]))
  const found = await reviewableRows(db, userId, since, STEPS_PER_REQUEST + 1)
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
  const found = await englishWords(db, ids)
  for (const row of found) glosses.set(Number(row.id), row.word)
  return glosses
}

/**
 * The caller's review queue: due cards first (most overdue first), then new words of the chosen
 * categories and stages, within the day's allowance of new cards.
 */
export async function reviewQueue(
  { db, shared, users }: Pick<Deps, 'db' | 'shared' | 'users'>,
  body: Schemas['ReviewQueueRequest'],
  user: AuthUser,
): Promise<Schemas['ReviewQueue']> {
  const now = new Date()
  const since = dayStart(body.dayStartsAt, now)
  const epoch = users.cardEpoch
  const [snapshot, mine, cards] = await Promise.all([
    shared.snapshot(body.language),
    users.get(user.id, body.language),
    cardsOf(db, user.id, body.language),
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
}

/** Answers recorded (idempotent by id); each answer's result in the order sent. */
export async function answerReviews(
  { db, users }: Pick<Deps, 'db' | 'users'>,
  answers: Answer[],
  user: AuthUser,
): Promise<{ results: Schemas['ReviewResult'][] }> {
  return { results: await recordAnswers(db, users, user.id, answers) }
}

/** The caller's figures in a language: due cards, cards by state, answers today, retention. */
export async function reviewStats(
  { db }: Pick<Deps, 'db'>,
  query: { language: Schemas['TrainingLanguage']; dayStartsAt?: string },
  user: AuthUser,
): Promise<Schemas['ReviewStats']> {
  const now = new Date()
  const since = dayStart(query.dayStartsAt, now)
  const until = new Date(since.getTime() + DAY_MS)
  const cards = await cardCounts(db, user.id, query.language, now, until)
  const answers = await answerCounts(
    db,
    user.id,
    query.language,
    since,
    new Date(now.getTime() - 30 * DAY_MS),
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
}
