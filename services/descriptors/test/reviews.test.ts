// Spaced repetition through the real HTTP stack and database: the cards the server keeps must
// be exactly what ts-fsrs makes of the answers, in the order they were given.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmptyCard, fsrs, Rating, State } from 'ts-fsrs'
import type { Card, Grade } from 'ts-fsrs'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { scheduler } from '../src/reviews/reviews.ts'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

let h: Harness
let textures: number
let feelings: number

beforeAll(async () => {
  h = await harness()
  const perceptions = (await h.as(null).get('/api/perceptions?language=en')).json() as {
    id: number
    name: string
  }[]
  textures = perceptions.find((p) => p.name === 'Textures')?.id ?? 0
  feelings = perceptions.find((p) => p.name === 'First Feelings')?.id ?? 0
})
afterAll(() => h.app.close())

// The scheduler as ts-fsrs documents its defaults; the service must agree with it.
const reference = fsrs({ enable_fuzz: true })
const grades = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy }
type RatingName = keyof typeof grades

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** ts-fsrs's card after these answers, given in time order. */
function expected(answers: { rating: RatingName; at: Date }[]): Card {
  const sorted = [...answers].sort((a, b) => a.at.getTime() - b.at.getTime())
  let card = createEmptyCard(sorted[0]?.at ?? new Date())
  for (const a of sorted) card = reference.next(card, a.at, grades[a.rating] as Grade).card
  return card
}

/** Each answer's card state just before it, in time order: what the answers table must hold. */
function statesBefore(answers: { rating: RatingName; at: Date }[]): number[] {
  const sorted = [...answers].sort((a, b) => a.at.getTime() - b.at.getTime())
  let card = createEmptyCard(sorted[0]?.at ?? new Date())
  return sorted.map((a) => {
    const before = card.state
    card = reference.next(card, a.at, grades[a.rating] as Grade).card
    return before
  })
}

const stateName = ['new', 'learning', 'review', 'relearning']
const ratingNames = ['good', 'again', 'hard', 'easy', 'good'] as const

function asSchedule(card: Card) {
  return {
    state: stateName[card.state],
    due: card.due.toISOString(),
    stability: card.stability,
    difficulty: card.difficulty,
    reps: card.reps,
    lapses: card.lapses,
    lastReview: card.last_review?.toISOString() ?? null,
  }
}

async function user() {
  const id = `reviewer-${randomUUID()}`
  return { id, token: await h.keys.tokenFor('user', id) }
}

const queue = (token: string, body: object) =>
  h.as(token).post('/api/reviews/queue', {
    language: 'de',
    stages: ['Stage 1-2', 'Stage 2-3'],
    gestaltIds: [],
    perceptionIds: [textures],
    ...body,
  })

const answer = (token: string, answers: object[]) => h.as(token).post('/api/reviews', { answers })

/** Ids of the German textures, in the trainer's order. */
async function textureIds(): Promise<number[]> {
  const bulk = (await h.as((await user()).token).get('/api/descriptors/bulk?language=de')).json()
  return bulk.byPerception.find((g: { categoryId: number }) => g.categoryId === textures)
    .descriptorIds
}

describe('the review queue', () => {
  it('offers new words of the chosen categories, each with an English gloss, up to the day’s limit', async () => {
    const { token } = await user()
    const res = await queue(token, { newPerDay: 5 })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    const ids = await textureIds()
    expect(body.dueCount).toBe(0)
    expect(body.newToday).toBe(0)
    expect(body.newCount).toBe(ids.length)
    expect(body.cards.map((c: { descriptor: { id: number } }) => c.descriptor.id)).toEqual(
      ids.slice(0, 5),
    )
    const weich = body.cards.find(
      (c: { descriptor: { word: string } }) => c.descriptor.word === 'weich',
    )
    expect(weich).toMatchObject({ gloss: 'soft', schedule: { state: 'new', due: null, reps: 0 } })
    // What each rating would do to a new card now: again sooner than good, good sooner than easy.
    const next = body.cards[0].next
    expect(Date.parse(next.again)).toBeLessThan(Date.parse(next.good))
    expect(Date.parse(next.good)).toBeLessThan(Date.parse(next.easy))
    // English cards need no gloss.
    const english = (await queue(token, { language: 'en', limit: 1 })).json()
    expect(english.cards[0].gloss).toBeNull()
  })

  it('puts due cards first, leaves out hidden words, and counts new words started today', async () => {
    const { id, token } = await user()
    const [a, b, c] = await textureIds()
    const now = Date.now()
    // Learned three days ago: due again by now. b was answered just now: due in minutes.
    const res = await answer(token, [
      {
        id: randomUUID(),
        descriptorId: a,
        rating: 'good',
        answeredAt: new Date(now - 3 * DAY).toISOString(),
      },
      {
        id: randomUUID(),
        descriptorId: c,
        rating: 'again',
        answeredAt: new Date(now - 2 * DAY).toISOString(),
      },
      {
        id: randomUUID(),
        descriptorId: b,
        rating: 'good',
        answeredAt: new Date(now - 1000).toISOString(),
      },
    ])
    expect(res.json().results.map((r: { status: string }) => r.status)).toEqual([
      'applied',
      'applied',
      'applied',
    ])
    const dayStartsAt = new Date(now - 12 * HOUR).toISOString()
    let body = (await queue(token, { newPerDay: 2, dayStartsAt })).json()
    // Earliest due first: a (learned three days ago, due ten minutes later), then c.
    expect(
      body.cards.slice(0, 2).map((x: { descriptor: { id: number } }) => x.descriptor.id),
    ).toEqual([a, c])
    expect(body.cards[0].schedule.state).toBe('learning')
    // b counts as today's new word: one more new one fits in a limit of two.
    expect(body.newToday).toBe(1)
    expect(body.cards).toHaveLength(3)
    expect(body.cards[2].schedule.state).toBe('new')
    expect(body.cards.map((x: { descriptor: { id: number } }) => x.descriptor.id)).not.toContain(b)
    // Hidden: gone from the queue and from the figures.
    await h.app.db.execute(
      sql`INSERT INTO descriptors.hidden (user_id, descriptor_id) VALUES (${id}, ${c})`,
    )
    h.app.vocabulary.invalidate('de')
    body = (await queue(token, { newPerDay: 0, dayStartsAt })).json()
    expect(body.cards.map((x: { descriptor: { id: number } }) => x.descriptor.id)).toEqual([a])
    expect(body.dueCount).toBe(1)
  })

  it('is for signed-in users, and refuses a malformed request in the contract’s shape', async () => {
    const anonymous = await h.as(null).post('/api/reviews/queue', {
      language: 'de',
      stages: ['Stage 1-2'],
      gestaltIds: [],
      perceptionIds: [feelings],
    })
    expect(anonymous.statusCode).toBe(401)
    const { token } = await user()
    const bad = await answer(token, [
      { id: 'not-a-uuid', descriptorId: 1, rating: 'perfect', answeredAt: 'x' },
    ])
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBeTruthy()
    expect((await answer(token, [])).statusCode).toBe(400)
  })
})

// Answers read their card from the database (replicas), or take it as this process last saw it
// (the launcher's one process, USER_STATE_CACHE=local): the cards must be the same either way.
describe.each(['off', 'local'])('answers, USER_STATE_CACHE=%s', (mode) => {
  let main: Harness
  beforeAll(async () => {
    main = h
    h = await harness({ USER_STATE_CACHE: mode }, main.keys)
  })
  afterAll(async () => {
    await h.app.close()
    h = main
  })

  it('move a card through learning, review and relearning exactly as ts-fsrs does', async () => {
    const { id, token } = await user()
    const [word] = await textureIds()
    const t0 = Date.now() - 40 * DAY
    const given: { rating: RatingName; at: Date }[] = [
      { rating: 'good', at: new Date(t0) },
      { rating: 'good', at: new Date(t0 + 10 * 60_000) },
      { rating: 'good', at: new Date(t0 + 4 * DAY) },
      { rating: 'again', at: new Date(t0 + 20 * DAY) },
      { rating: 'good', at: new Date(t0 + 20 * DAY + 10 * 60_000) },
      { rating: 'easy', at: new Date(t0 + 30 * DAY) },
    ]
    const states: string[] = []
    for (let i = 0; i < given.length; i++) {
      const a = given[i]
      if (!a) continue
      const res = await answer(token, [
        {
          id: randomUUID(),
          descriptorId: word,
          rating: a.rating,
          answeredAt: a.at.toISOString(),
          durationMs: 1500,
        },
      ])
      expect(res.statusCode).toBe(200)
      const want = expected(given.slice(0, i + 1))
      expect(res.json().results[0]).toMatchObject({ status: 'applied', schedule: asSchedule(want) })
      states.push(stateName[want.state] ?? '')
    }
    expect(states).toEqual(['learning', 'review', 'review', 'relearning', 'review', 'review'])
    // What is stored is what was answered.
    const [row] = (
      await h.app.db.execute(
        sql`SELECT state, reps, lapses, due FROM descriptors.review_cards WHERE user_id = ${id} AND descriptor_id = ${word}`,
      )
    ).rows as { state: number; reps: number; lapses: number; due: Date }[]
    const final = expected(given)
    expect(row).toMatchObject({ state: State.Review, reps: final.reps, lapses: 1 })
    expect(new Date(row?.due ?? 0).toISOString()).toBe(final.due.toISOString())
  })

  it('count once when the same answer arrives twice, in one batch or two', async () => {
    const { token } = await user()
    const [word] = await textureIds()
    const one = {
      id: randomUUID(),
      descriptorId: word,
      rating: 'good',
      answeredAt: new Date(Date.now() - DAY).toISOString(),
    }
    const first = (await answer(token, [one, one])).json().results
    expect(first.map((r: { status: string }) => r.status)).toEqual(['applied', 'duplicate'])
    const again = (await answer(token, [one])).json().results[0]
    expect(again.status).toBe('duplicate')
    expect(again.schedule.reps).toBe(1)
    expect(again.schedule).toEqual(first[0].schedule)
  })

  it('put a late-synced answer in its place: the card is what all answers make in time order', async () => {
    const { token } = await user()
    const [word] = await textureIds()
    const t0 = Date.now() - 30 * DAY
    const laptop = [
      { rating: 'good' as const, at: new Date(t0) },
      { rating: 'good' as const, at: new Date(t0 + 10 * DAY) },
    ]
    // Given on a phone in between, while offline.
    const phone = { rating: 'again' as const, at: new Date(t0 + 3 * DAY) }
    for (const a of laptop)
      await answer(token, [
        { id: randomUUID(), descriptorId: word, rating: a.rating, answeredAt: a.at.toISOString() },
      ])
    const late = (
      await answer(token, [
        {
          id: randomUUID(),
          descriptorId: word,
          rating: phone.rating,
          answeredAt: phone.at.toISOString(),
        },
      ])
    ).json().results[0]
    const inOrder = expected([...laptop, phone])
    expect(late).toMatchObject({ status: 'applied', schedule: asSchedule(inOrder) })
    // It changed the card (ts-fsrs itself refuses an answer before the card's last review).
    expect(late.schedule).not.toEqual(asSchedule(expected(laptop)))
    expect(() => reference.next(expected(laptop), phone.at, Rating.Again)).toThrow()
    expect(late.schedule.reps).toBe(3)
  })

  it('lose none when devices answer one card at the same moment', async () => {
    const { token } = await user()
    const [word] = await textureIds()
    const t0 = Date.now() - 60 * DAY
    const given = Array.from({ length: 10 }, (_, i) => ({
      rating: (['good', 'again', 'hard', 'easy'] as const)[i % 4] ?? 'good',
      at: new Date(t0 + i * 5 * DAY),
    }))
    // Ten requests in flight together, each read before the others wrote.
    const sent = await Promise.all(
      given.map((a) =>
        answer(token, [
          {
            id: randomUUID(),
            descriptorId: word,
            rating: a.rating,
            answeredAt: a.at.toISOString(),
          },
        ]),
      ),
    )
    expect(sent.map((r) => [r.statusCode, r.json().results?.[0]?.status ?? r.body])).toEqual(
      given.map(() => [200, 'applied']),
    )
    const queued = await h.as(token).post('/api/reviews/queue', {
      language: 'de',
      stages: [],
      gestaltIds: [],
      perceptionIds: [],
    })
    expect(queued.statusCode).toBe(200)
    const last = (
      await answer(token, [
        {
          id: randomUUID(),
          descriptorId: word,
          rating: 'good',
          answeredAt: new Date().toISOString(),
        },
      ])
    ).json().results[0]
    // Eleven answers in all, the card as ts-fsrs makes them in time order.
    expect(last.schedule.reps).toBe(11)
    const all = [
      ...given,
      { rating: 'good' as const, at: new Date(Date.parse(last.schedule.lastReview)) },
    ]
    expect(last.schedule).toEqual(asSchedule(expected(all)))
  })

  it('record a late batch with one replay of its card and a fixed number of statements, the card as a from-scratch replay', async () => {
    const { id, token } = await user()
    const [word] = await textureIds()
    const t0 = Date.now() - 50 * DAY
    // Five answers synced in time, then a phone's queue of forty, each older than the last,
    // reaching back past all five.
    const stored = Array.from({ length: 5 }, (_, i) => ({
      rating: ratingNames[i % 5] ?? 'good',
      at: new Date(t0 + (10 + 2 * i) * DAY),
    }))
    const late = Array.from({ length: 40 }, (_, i) => ({
      rating: ratingNames[(i * 3) % 5] ?? 'good',
      at: new Date(t0 + 15 * DAY - i * 7 * HOUR),
    }))
    const toAnswers = (given: { rating: RatingName; at: Date }[]) =>
      given.map((a) => ({
        id: randomUUID(),
        descriptorId: word,
        rating: a.rating,
        answeredAt: a.at.toISOString(),
      }))
    expect((await answer(token, toAnswers(stored))).statusCode).toBe(200)

    const steps = vi.spyOn(scheduler, 'next')
    const statements = vi.spyOn(pg.Client.prototype, 'query')
    const res = await answer(token, toAnswers(late))
    const counted = { steps: steps.mock.calls.length, statements: statements.mock.calls.length }
    steps.mockRestore()
    statements.mockRestore()

    expect(res.statusCode).toBe(200)
    const all = [...stored, ...late]
    // The card's history read once and stepped through once, not once per answer (that was
    // 45 + 44 + … + 6 steps and several statements an answer). Nine: the replay locks the card's
    // row in a statement of its own before it reads the answers (lockCards says why).
    expect(counted).toEqual({
      steps: expect.toSatisfy((n: number) => n <= 2 * all.length),
      statements: expect.toSatisfy((n: number) => n <= 9),
    })
    const replayed = asSchedule(expected(all))
    expect(res.json().results).toEqual(
      late.map(() => expect.objectContaining({ status: 'applied', schedule: replayed })),
    )
    const [card] = (
      await h.app.db.execute(
        sql`SELECT state, reps, lapses, stability, due FROM descriptors.review_cards
            WHERE user_id = ${id} AND descriptor_id = ${word}`,
      )
    ).rows as { state: number; reps: number; lapses: number; stability: number; due: string }[]
    const want = expected(all)
    expect(card).toMatchObject({ state: want.state, reps: 45, lapses: want.lapses })
    expect(Number(card?.stability)).toBe(want.stability)
    expect(Date.parse(String(card?.due))).toBe(want.due.getTime())
    // Each answer keeps the state its card was in just before it (retention counts them).
    const states = (
      await h.app.db.execute(
        sql`SELECT state FROM descriptors.review_answers
            WHERE user_id = ${id} AND descriptor_id = ${word} ORDER BY answered_at`,
      )
    ).rows.map((r) => Number(r.state))
    expect(states).toEqual(statesBefore(all))
  })

  it('take an answer a few minutes ahead (a fast clock) as given now, and drop words that are gone or not the caller’s', async () => {
    const { token } = await user()
    const other = await user()
    const [word] = await textureIds()
    const before = Date.now()
    const future = (
      await answer(token, [
        {
          id: randomUUID(),
          descriptorId: word,
          rating: 'good',
          answeredAt: new Date(before + 3 * 60_000).toISOString(),
        },
      ])
    ).json().results[0]
    expect(Date.parse(future.schedule.lastReview)).toBeLessThanOrEqual(Date.now())
    expect(Date.parse(future.schedule.lastReview)).toBeGreaterThanOrEqual(before - 1000)
    // Someone else's pending word, and a word that does not exist.
    const pending = await h.as(other.token).post('/api/descriptors', {
      word: `privat-${randomUUID().slice(0, 8)}`,
      language: 'de',
      perceptionId: textures,
    })
    const theirs = pending.json().id as number
    const res = (
      await answer(token, [
        {
          id: randomUUID(),
          descriptorId: theirs,
          rating: 'good',
          answeredAt: new Date().toISOString(),
        },
        {
          id: randomUUID(),
          descriptorId: 2_000_000_000,
          rating: 'good',
          answeredAt: new Date().toISOString(),
        },
      ])
    ).json().results
    expect(res.map((r: { status: string; schedule: unknown }) => [r.status, r.schedule])).toEqual([
      ['gone', null],
      ['gone', null],
    ])
    // Their own custom word is theirs to review, and comes as a new card of its category.
    const own = (
      await answer(other.token, [
        {
          id: randomUUID(),
          descriptorId: theirs,
          rating: 'easy',
          answeredAt: new Date().toISOString(),
        },
      ])
    ).json().results[0]
    expect(own.status).toBe('applied')
  })
})

describe('a batch of answers', () => {
  it('records at most 50 answers to one word, the earliest, and leaves the others out to be sent again', async () => {
    const { token } = await user()
    const [a, b] = await textureIds()
    const t0 = Date.now() - 30 * DAY
    // Sixty answers to a, in a shuffled order, and three to b.
    const toA = Array.from({ length: 60 }, (_, i) => ({
      id: randomUUID(),
      descriptorId: a,
      rating: ratingNames[i % 5] ?? 'good',
      at: new Date(t0 + ((i * 37) % 60) * 6 * HOUR),
    }))
    const toB = Array.from({ length: 3 }, (_, i) => ({
      id: randomUUID(),
      descriptorId: b,
      rating: 'good' as const,
      at: new Date(t0 + i * DAY),
    }))
    const sent = [...toA.slice(0, 30), ...toB, ...toA.slice(30)]
    const body = (given: typeof sent) =>
      given.map(({ at, ...rest }) => ({ ...rest, answeredAt: at.toISOString() }))
    const res = await answer(token, body(sent))
    expect(res.statusCode).toBe(200)
    const byTime = [...toA].sort((x, y) => x.at.getTime() - y.at.getTime())
    const earliest = new Set(byTime.slice(0, 50).map((x) => x.id))
    const recorded = sent.filter((x) => x.descriptorId === b || earliest.has(x.id))
    const results = res.json().results as { id: string; status: string }[]
    // In the order sent; the ten latest answers to a are not among them, so an outbox keeps them.
    expect(results.map((r) => [r.id, r.status])).toEqual(recorded.map((x) => [x.id, 'applied']))
    const left = sent.filter((x) => !results.some((r) => r.id === x.id))
    expect(left).toHaveLength(10)
    const rest = (await answer(token, body(left))).json().results
    expect(rest.map((r: { status: string }) => r.status)).toEqual(left.map(() => 'applied'))
    // None lost, none twice: the card is what all sixty make.
    expect(rest.at(-1).schedule).toEqual(asSchedule(expected(toA)))
    expect(rest.at(-1).schedule.reps).toBe(60)
  })

  /** `perWord` answers to each word in time order from `t0`, an hour apart, 50 a word a request. */
  async function history(token: string, words: number[], perWord: number, t0: number) {
    const given = new Map(words.map((w) => [w, [] as { rating: RatingName; at: Date }[]]))
    for (let from = 0; from < perWord; from += 50) {
      const answers = words.flatMap((descriptorId) =>
        Array.from({ length: Math.min(50, perWord - from) }, (_, i) => {
          const a = {
            rating: ratingNames[(from + i) % 5] ?? 'good',
            at: new Date(t0 + (from + i) * HOUR),
          }
          given.get(descriptorId)?.push(a)
          return {
            id: randomUUID(),
            descriptorId,
            rating: a.rating,
            answeredAt: a.at.toISOString(),
          }
        }),
      )
      const res = await answer(token, answers)
      expect(
        res.json().results.filter((r: { status: string }) => r.status === 'applied'),
      ).toHaveLength(answers.length)
    }
    return given
  }

  /** The request's results, and how many answers it stepped through with ts-fsrs. */
  async function counted(token: string, answers: object[]) {
    const steps = vi.spyOn(scheduler, 'next')
    try {
      const res = await answer(token, answers)
      expect(res.statusCode).toBe(200)
      return { results: res.json().results as Result[], steps: steps.mock.calls.length }
    } finally {
      steps.mockRestore()
    }
  }
  type Result = { id: string; status: string; descriptorId: number; schedule: object }

  it('steps through at most 500 answers a request, however far back its answers reach, and loses none', async () => {
    const { id, token } = await user()
    const words = (await textureIds()).slice(0, 10)
    expect(words).toHaveLength(10)
    // Ten words holding 50 answers each, then 50 a word, each older than all of them: every
    // card is replayed from its first answer, 100 steps a word (the attack run's batch).
    const t0 = Date.now() - 20 * DAY
    const given = await history(token, words, 50, t0)
    let waiting = words.flatMap((descriptorId, w) =>
      Array.from({ length: 50 }, (_, i) => {
        const a = {
          rating: ratingNames[(i + w) % 5] ?? 'good',
          at: new Date(t0 - (i * 10 + w + 1) * 60_000),
        }
        given.get(descriptorId)?.push(a)
        return { id: randomUUID(), descriptorId, rating: a.rating, answeredAt: a.at.toISOString() }
      }),
    )
    const rounds: { steps: number; taken: number }[] = []
    while (waiting.length > 0 && rounds.length < 5) {
      const { results, steps } = await counted(token, waiting)
      rounds.push({ steps, taken: results.length })
      expect(results.every((r) => r.status === 'applied')).toBe(true)
      waiting = waiting.filter((a) => !results.some((r) => r.id === a.id))
    }
    // Five words fit a request (5 x 100 steps); the outbox sends the others again.
    expect(rounds).toEqual([
      { steps: 500, taken: 250 },
      { steps: 500, taken: 250 },
    ])
    // None lost, none twice: each card is what its 100 answers make in time order.
    const cards = (
      await h.app.db.execute(
        sql`SELECT descriptor_id, state, reps, lapses, stability, difficulty, due
            FROM descriptors.review_cards WHERE user_id = ${id} ORDER BY descriptor_id`,
      )
    ).rows as { descriptor_id: string; reps: number; stability: number; due: string }[]
    expect(cards).toHaveLength(10)
    for (const card of cards) {
      const want = expected(given.get(Number(card.descriptor_id)) ?? [])
      expect(card).toMatchObject({ reps: 100, state: want.state, lapses: want.lapses })
      expect(Number(card.stability)).toBe(want.stability)
      expect(Date.parse(card.due)).toBe(want.due.getTime())
    }
  })

  it('takes answers to a word holding more than 500: later ones at their own cost, a late one from the card just before it', async () => {
    const { id, token } = await user()
    const [word = 0] = await textureIds()
    const t0 = Date.now() - 60 * DAY
    const given = (await history(token, [word], 550, t0)).get(word) ?? []
    const one = (rating: RatingName, at: Date) => {
      given.push({ rating, at })
      return [{ id: randomUUID(), descriptorId: word, rating, answeredAt: at.toISOString() }]
    }
    const schedule = async (answers: object[]) => {
      const { results, steps } = await counted(token, answers)
      expect(results.map((r) => r.status)).toEqual(['applied'])
      return { schedule: results[0]?.schedule, steps }
    }
    // Given now: one step.
    expect(await schedule(one('good', new Date()))).toEqual({
      schedule: asSchedule(expected(given)),
      steps: 1,
    })
    // A phone's answer placed before the last ten: those ten and itself, from the card the
    // answer before it left.
    expect(await schedule(one('again', new Date(t0 + 540.5 * HOUR)))).toEqual({
      schedule: asSchedule(expected(given)),
      steps: 11,
    })
    // And before the last four, from a card the replay above stored.
    expect(await schedule(one('easy', new Date(t0 + 546.5 * HOUR)))).toEqual({
      schedule: asSchedule(expected(given)),
      steps: 5,
    })
    // Placed before over 500 answers: never taken (left in the outbox), the card unchanged.
    const tooFar = [
      {
        id: randomUUID(),
        descriptorId: word,
        rating: 'hard',
        answeredAt: new Date(t0 + 10.5 * HOUR).toISOString(),
      },
    ]
    expect(await counted(token, tooFar)).toEqual({ results: [], steps: 0 })
    const [card] = (
      await h.app.db.execute(
        sql`SELECT reps FROM descriptors.review_cards WHERE user_id = ${id} AND descriptor_id = ${word}`,
      )
    ).rows
    expect(card).toEqual({ reps: 553 })
    // Every answer keeps the state its card was in just before it.
    const states = (
      await h.app.db.execute(
        sql`SELECT state FROM descriptors.review_answers
            WHERE user_id = ${id} AND descriptor_id = ${word} ORDER BY answered_at`,
      )
    ).rows.map((r) => Number(r.state))
    expect(states).toEqual(statesBefore(given))
  })
})

describe('answer times', () => {
  it('refuses an answer dated before 2026 or more than five minutes ahead, in the contract’s error shape, and records nothing of its batch', async () => {
    const { token } = await user()
    const [word] = await textureIds()
    const good = {
      id: randomUUID(),
      descriptorId: word,
      rating: 'good',
      answeredAt: new Date().toISOString(),
    }
    for (const answeredAt of [
      '0001-01-01T00:00:00Z',
      '0000-06-01T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '2025-12-31T23:59:59.999Z',
      new Date(Date.now() + 10 * 60_000).toISOString(),
      '2030-01-01T00:00:00Z',
    ]) {
      const bad = { id: randomUUID(), descriptorId: word, rating: 'good', answeredAt }
      const res = await answer(token, [good, bad])
      expect(res.statusCode, answeredAt).toBe(400)
      expect(res.json().error).toMatchObject({
        code: 'answered_at_out_of_range',
        details: { answers: [{ id: bad.id, answeredAt }] },
      })
    }
    const stats = (await h.as(token).get('/api/reviews/stats?language=de')).json()
    expect(stats).toMatchObject({ cards: 0, answersToday: 0 })
    // The first moment of the window is inside it; a leap second is the instant after :59.
    const first = await answer(token, [{ ...good, answeredAt: '2026-01-01T00:00:00.000Z' }])
    expect(first.json().results[0]).toMatchObject({
      status: 'applied',
      schedule: { lastReview: '2026-01-01T00:00:00.000Z' },
    })
    const leap = await answer(token, [
      { ...good, id: randomUUID(), answeredAt: '2026-06-30T23:59:60.250Z' },
    ])
    expect(leap.json().results[0]).toMatchObject({
      status: 'applied',
      schedule: { lastReview: '2026-07-01T00:00:00.250Z' },
    })
  })

  it('reads, answers and exports a card that already holds an answer of year 0001, each time exactly', async () => {
    const { id, token } = await user()
    const [word] = await textureIds()
    const now = Date.now()
    // Stored before answers were checked: year 1 and 1999, then two in time.
    const given: { rating: RatingName; at: Date }[] = [
      { rating: 'good', at: new Date('0001-01-01T00:00:00.000Z') },
      { rating: 'again', at: new Date('1999-12-31T23:00:00.000Z') },
      { rating: 'good', at: new Date(now - 3 * DAY) },
      { rating: 'hard', at: new Date(now - 2 * DAY) },
    ]
    const ids: string[] = given.map(() => randomUUID())
    const states = statesBefore(given)
    for (const [i, a] of given.entries())
      await h.app.db.execute(
        sql`INSERT INTO descriptors.review_answers
              (user_id, id, descriptor_id, language, rating, state, answered_at)
            VALUES (${id}, ${ids[i]}, ${word}, 'de', ${grades[a.rating]}, ${states[i]},
                    ${a.at.toISOString()})`,
      )
    const card = expected(given)
    await h.app.db.execute(
      sql`INSERT INTO descriptors.review_cards
            (user_id, descriptor_id, language, state, due, stability, difficulty, elapsed_days,
             scheduled_days, learning_steps, reps, lapses, last_review, first_review)
          VALUES (${id}, ${word}, 'de', ${card.state}, ${card.due.toISOString()}, ${card.stability},
                  ${card.difficulty}, ${card.elapsed_days}, ${card.scheduled_days},
                  ${card.learning_steps}, ${card.reps}, ${card.lapses},
                  ${card.last_review?.toISOString() ?? null}, '0001-01-01T00:00:00Z')`,
    )
    const queued = await h.as(token).post('/api/reviews/queue', {
      language: 'de',
      stages: [],
      gestaltIds: [],
      perceptionIds: [],
    })
    expect(queued.statusCode).toBe(200)
    // A late answer from a phone: placed between the two recent ones, the card replayed.
    const phone = { rating: 'easy' as const, at: new Date(now - 2.5 * DAY) }
    const res = await answer(token, [
      {
        id: randomUUID(),
        descriptorId: word,
        rating: phone.rating,
        answeredAt: phone.at.toISOString(),
      },
    ])
    expect(res.statusCode).toBe(200)
    expect(res.json().results[0]).toMatchObject({
      status: 'applied',
      schedule: asSchedule(expected([...given, phone])),
    })
    const exported = (await h.as(token).get('/api/account/descriptors')).json()
    expect(
      exported.reviewAnswers
        .filter((a: { id: string }) => ids.slice(0, 2).includes(a.id))
        .map((a: { answeredAt: string }) => a.answeredAt),
    ).toEqual(['0001-01-01T00:00:00.000Z', '1999-12-31T23:00:00.000Z'])
  })
})

describe('cards kept by two replicas that each keep what they last saw', () => {
  let a: Harness
  let b: Harness
  beforeAll(async () => {
    a = await harness({ USER_STATE_CACHE: 'local' }, h.keys)
    b = await harness({ USER_STATE_CACHE: 'local' }, h.keys)
  })
  afterAll(async () => {
    await a.app.close()
    await b.app.close()
  })
  const one = (on: Harness, token: string, descriptorId: number, rating: RatingName, at: Date) =>
    on
      .as(token)
      .post('/api/reviews', {
        answers: [{ id: randomUUID(), descriptorId, rating, answeredAt: at.toISOString() }],
      })
      .then((res) => {
        expect(res.statusCode).toBe(200)
        return res.json().results[0]
      })

  it('are put right when the other replica answered, deleted the history or the word meanwhile', async () => {
    const { token } = await user()
    const t0 = Date.now() - 20 * DAY
    const [word] = await textureIds()
    if (!word) throw new Error('no German texture')
    // Replica A shows the queue (keeping the cards) and takes an answer.
    await a.as(token).post('/api/reviews/queue', {
      language: 'de',
      stages: ['Stage 1-2', 'Stage 2-3'],
      gestaltIds: [],
      perceptionIds: [textures],
    })
    const given: { rating: RatingName; at: Date }[] = [{ rating: 'good', at: new Date(t0) }]
    await one(a, token, word, 'good', new Date(t0))
    // Replica B takes the next; A's kept card is now one answer behind.
    given.push({ rating: 'hard', at: new Date(t0 + 3 * DAY) })
    await one(b, token, word, 'hard', new Date(t0 + 3 * DAY))
    given.push({ rating: 'again', at: new Date(t0 + 9 * DAY) })
    const third = await one(a, token, word, 'again', new Date(t0 + 9 * DAY))
    expect(third).toMatchObject({ status: 'applied', schedule: asSchedule(expected(given)) })
    expect(third.schedule.reps).toBe(3)

    // B deletes the history; A still keeps the card at three answers.
    expect((await b.as(token).delete('/api/history')).statusCode).toBe(204)
    const fresh = await one(a, token, word, 'easy', new Date(t0 + 12 * DAY))
    expect(fresh).toMatchObject({
      status: 'applied',
      schedule: asSchedule(expected([{ rating: 'easy', at: new Date(t0 + 12 * DAY) }])),
    })

    // The user's own word, reviewed on A, then deleted on B: A answers `gone`, not an error.
    const own = await b.as(token).post('/api/descriptors', {
      word: `eigen-${randomUUID().slice(0, 8)}`,
      language: 'de',
      perceptionId: textures,
    })
    expect(own.statusCode).toBe(201)
    const ownId = own.json().id as number
    expect((await one(a, token, ownId, 'good', new Date(t0))).status).toBe('applied')
    expect((await b.as(token).delete(`/api/descriptors/${ownId}`)).statusCode).toBe(204)
    expect(await one(a, token, ownId, 'good', new Date(t0 + DAY))).toMatchObject({
      status: 'gone',
      schedule: null,
    })
  })
})

describe('review figures', () => {
  it('count due cards, states, today’s answers and retention in the review state', async () => {
    const { token } = await user()
    const [a, b] = await textureIds()
    const empty = (await h.as(token).get('/api/reviews/stats?language=de')).json()
    expect(empty).toEqual({
      language: 'de',
      dueNow: 0,
      dueToday: 0,
      cards: 0,
      learning: 0,
      review: 0,
      relearning: 0,
      answersToday: 0,
      retention: null,
    })
    const t0 = Date.now() - 20 * DAY
    const at = (ms: number) => new Date(ms).toISOString()
    await answer(token, [
      // a: learned, then recalled in review (good), then forgotten in review (again).
      { id: randomUUID(), descriptorId: a, rating: 'easy', answeredAt: at(t0) },
      { id: randomUUID(), descriptorId: a, rating: 'good', answeredAt: at(t0 + 10 * DAY) },
      { id: randomUUID(), descriptorId: a, rating: 'again', answeredAt: at(Date.now() - 60_000) },
      // b: started just now.
      { id: randomUUID(), descriptorId: b, rating: 'good', answeredAt: at(Date.now() - 1000) },
    ])
    const stats = (
      await h
        .as(token)
        .get(
          `/api/reviews/stats?language=de&dayStartsAt=${encodeURIComponent(at(Date.now() - HOUR))}`,
        )
    ).json()
    expect(stats).toMatchObject({
      cards: 2,
      learning: 1,
      relearning: 1,
      review: 0,
      answersToday: 2,
    })
    // Two answers in the review state in 30 days (the first one at t0 was a new card): one recalled.
    expect(stats.retention).toBe(0.5)
    expect(stats.dueToday).toBe(2)
    expect((await h.as(null).get('/api/reviews/stats?language=de')).statusCode).toBe(401)
  })
})
