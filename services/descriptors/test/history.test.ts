// Training history through the real HTTP stack: sessions kept once, days counted in the
// user's time zone, streaks, reviews included, and the whole history deleted on request.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { localDate, streaks } from '../src/history/history.ts'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

let h: Harness
beforeAll(async () => {
  h = await harness()
})
afterAll(() => h.app.close())

const DAY = 86_400_000
const MINUTE = 60_000

async function user() {
  const id = `history-${randomUUID()}`
  return { id, token: await h.keys.tokenFor('user', id) }
}

const session = (fields: object = {}) => ({
  id: randomUUID(),
  activity: 'ideogram',
  startedAt: new Date(Date.now() - 10 * MINUTE).toISOString(),
  durationMs: 6 * MINUTE,
  speeds: ['normal'],
  gestalts: ['land', 'water'],
  ...fields,
})

describe('streaks', () => {
  it('count the run ending today, or yesterday when nothing yet today, and the longest run', () => {
    const dates = new Set(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-24', '2026-11-25'])
    expect(streaks(dates, '2026-11-25')).toEqual({ current: 2, longest: 3 })
    expect(streaks(dates, '2026-11-26')).toEqual({ current: 2, longest: 3 })
    expect(streaks(dates, '2026-11-27')).toEqual({ current: 0, longest: 3 })
    // Across a month's end and a leap day.
    expect(streaks(new Set(['2028-02-28', '2028-02-29', '2028-03-01']), '2028-03-01')).toEqual({
      current: 3,
      longest: 3,
    })
    expect(streaks(new Set(), '2026-11-25')).toEqual({ current: 0, longest: 0 })
  })
})

describe('training history', () => {
  it('keeps a session once, however often it is sent', async () => {
    const { token } = await user()
    const one = session()
    const first = await h.as(token).post('/api/history/sessions', one)
    expect(first.statusCode).toBe(201)
    expect(first.json()).toEqual(one)
    expect((await h.as(token).post('/api/history/sessions', one)).statusCode).toBe(200)
    const history = (await h.as(token).get('/api/history?days=7')).json()
    expect(history.days).toHaveLength(7)
    expect(history.totals).toEqual({
      minutes: { ideogram: 6, descriptors: 0, tachistoscope: 0, reviews: 0 },
      sessions: 1,
      reviews: 0,
    })
    expect(history.currentStreak).toBe(1)
  })

  it('counts days in the user’s time zone', async () => {
    const { token } = await user()
    // 23:30 UTC three days ago is already the next day in Berlin and still that day in New York.
    const utcDay = new Date(Date.now() - 3 * DAY).toISOString().slice(0, 10)
    const late = new Date(`${utcDay}T23:30:00Z`)
    await h
      .as(token)
      .post(
        '/api/history/sessions',
        session({ startedAt: late.toISOString(), durationMs: 20 * MINUTE }),
      )
    const dayOf = async (timeZone: string) => {
      const history = (await h.as(token).get(`/api/history?days=10&timeZone=${timeZone}`)).json()
      expect(history.timeZone).toBe(timeZone)
      return history.days
        .filter((d: { sessions: number }) => d.sessions > 0)
        .map((d: { date: string }) => d.date)
    }
    expect(await dayOf('UTC')).toEqual([utcDay])
    expect(await dayOf('Europe/Berlin')).toEqual([localDate(late, 'Europe/Berlin')])
    expect(localDate(late, 'Europe/Berlin')).not.toBe(utcDay)
    expect(await dayOf('America/New_York')).toEqual([utcDay])
    // India is 5:30 ahead: the quarter-hour grouping keeps it on the right day.
    expect(await dayOf('Asia/Kolkata')).toEqual([localDate(late, 'Asia/Kolkata')])
    const bad = await h.as(token).get('/api/history?timeZone=Mars/Olympus')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBe('invalid_time_zone')
  })

  it('adds review time and answers, and counts streaks over every activity', async () => {
    const { token } = await user()
    const perceptions = (await h.as(null).get('/api/perceptions?language=en')).json()
    const textures = perceptions.find((p: { name: string }) => p.name === 'Textures').id
    const queue = await h.as(token).post('/api/reviews/queue', {
      language: 'en',
      stages: ['Stage 2-3'],
      gestaltIds: [],
      perceptionIds: [textures],
      limit: 1,
    })
    const word = queue.json().cards[0].descriptor.id
    const review = await h.as(token).post('/api/reviews', {
      answers: [
        {
          id: randomUUID(),
          descriptorId: word,
          rating: 'good',
          answeredAt: new Date(Date.now() - DAY).toISOString(),
          durationMs: 90_000,
        },
      ],
    })
    expect(review.statusCode).toBe(200)
    // Today: descriptor training; yesterday: the review; six to two days before: ideograms.
    await h.as(token).post(
      '/api/history/sessions',
      session({
        activity: 'descriptors',
        language: 'de',
        words: 40,
        speeds: undefined,
        gestalts: undefined,
      }),
    )
    for (let d = 9; d >= 5; d--)
      await h
        .as(token)
        .post(
          '/api/history/sessions',
          session({ startedAt: new Date(Date.now() - d * DAY).toISOString() }),
        )
    const history = (await h.as(token).get('/api/history?days=14')).json()
    expect(history.currentStreak).toBe(2)
    expect(history.longestStreak).toBe(5)
    expect(history.totals).toMatchObject({ sessions: 6, reviews: 1 })
    expect(history.totals.minutes).toEqual({
      ideogram: 30,
      descriptors: 6,
      tachistoscope: 0,
      reviews: 1.5,
    })
    const yesterday = history.days.at(-2)
    expect(yesterday).toMatchObject({ reviews: 1, sessions: 0, minutes: { reviews: 1.5 } })
  })

  it('refuses a session from someone signed out or in the wrong shape', async () => {
    expect((await h.as(null).post('/api/history/sessions', session())).statusCode).toBe(401)
    expect((await h.as(null).get('/api/history')).statusCode).toBe(401)
    const { token } = await user()
    const bad = await h
      .as(token)
      .post('/api/history/sessions', session({ activity: 'juggling', durationMs: -1 }))
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.code).toBeTruthy()
    // A session that claims to end in the future is placed before now.
    const ahead = session({ startedAt: new Date(Date.now() + DAY).toISOString() })
    expect((await h.as(token).post('/api/history/sessions', ahead)).statusCode).toBe(201)
    expect((await h.as(token).get('/api/history?days=2')).json().days.at(-1).sessions).toBe(1)
  })

  it('is deleted whole on request, reviews included, while the user’s words stay', async () => {
    const { id, token } = await user()
    const other = await user()
    await h.as(token).post('/api/history/sessions', session())
    await h.as(other.token).post('/api/history/sessions', session())
    const gestalts = (await h.as(null).get('/api/gestalts?language=en')).json()
    const own = await h.as(token).post('/api/descriptors', {
      word: `mine-${randomUUID().slice(0, 8)}`,
      language: 'en',
      gestaltId: gestalts[0].id,
    })
    expect(own.statusCode).toBe(201)
    await h.as(token).post('/api/reviews', {
      answers: [
        {
          id: randomUUID(),
          descriptorId: own.json().id,
          rating: 'easy',
          answeredAt: new Date().toISOString(),
        },
      ],
    })
    expect((await h.as(token).delete('/api/history')).statusCode).toBe(204)
    const count = async (table: string) =>
      Number(
        (
          (
            await h.app.db.execute(
              sql.raw(`SELECT count(*) AS n FROM descriptors.${table} WHERE user_id = '${id}'`),
            )
          ).rows[0] as { n: string }
        ).n,
      )
    expect([
      await count('training_sessions'),
      await count('review_answers'),
      await count('review_cards'),
    ]).toEqual([0, 0, 0])
    expect((await h.as(token).get('/api/history')).json().totals.sessions).toBe(0)
    expect((await h.as(token).get('/api/user/descriptors')).json()).toHaveLength(1)
    // Another user's history is untouched.
    expect((await h.as(other.token).get('/api/history')).json().totals.sessions).toBe(1)
  })
})
