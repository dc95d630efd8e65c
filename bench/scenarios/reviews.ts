// Spaced repetition through the gateway on the embedded defaults: review answers at a steady
// 100 requests/s (the budget of issue [14]: p99 ≤ 30 ms) and the review queue, open-loop like
// the practice scenario (each request timed from the moment it was due). An answer counts as
// failed unless the server says it was applied. The self-check paces a stand-in that answers
// 40 ms late and must report it.
import { randomUUID } from 'node:crypto'
import { ms, withStandIn } from '../lib.ts'
import type { Section } from '../lib.ts'
import { startApp } from './app.ts'
import { paced } from './practice.ts'

const RATE = 100
const SECONDS = 20
const BUDGET_MS = 30
const VIEWERS = 20
const QUEUE_RATE = 50

function standIn(lateMs: number) {
  return withStandIn(lateMs, (base) => paced(300, RATE, () => fetch(`${base}/`)))
}

export async function reviews(): Promise<Section> {
  const check = await standIn(40)
  // What the load generator itself adds: a stand-in that answers at once.
  const floor = await standIn(0)
  const app = await startApp({ PHONE_SENDS_PER_IP_PER_HOUR: '1000' })
  try {
    const viewers = await Promise.all(
      Array.from({ length: VIEWERS }, (_, i) =>
        app.signIn(`+1555040${String(i).padStart(4, '0')}`),
      ),
    )
    const json = (token: string) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    })
    const perceptions = (await (await fetch(`${app.base}/api/perceptions?language=en`)).json()) as {
      id: number
      stage: string
    }[]
    const queueBody = JSON.stringify({
      language: 'en',
      stages: ['Stage 1-2', 'Stage 2-3', 'Stage 4-6'],
      gestaltIds: [],
      perceptionIds: perceptions.map((p) => p.id),
      newPerDay: 500,
      limit: 200,
    })
    // Each viewer's next cards, as the trainer fetches them.
    const cards = await Promise.all(
      viewers.map(async (token) => {
        const res = await fetch(`${app.base}/api/reviews/queue`, {
          method: 'POST',
          headers: json(token),
          body: queueBody,
        })
        const body = (await res.json()) as { cards: { descriptor: { id: number } }[] }
        return body.cards.map((c) => c.descriptor.id)
      }),
    )
    const count = RATE * SECONDS
    const ratings = ['good', 'good', 'good', 'again', 'hard', 'easy']
    let notApplied = 0
    // Three seconds at the same rate first (connections opened, code warm), not counted: each
    // viewer's later cards.
    const warmUp = RATE * 3
    let offset = count / VIEWERS
    const answerOne = async (i: number) => {
      const viewer = i % VIEWERS
      const word = cards[viewer]?.[offset + Math.floor(i / VIEWERS)] ?? 0
      const res = await fetch(`${app.base}/api/reviews`, {
        method: 'POST',
        headers: json(viewers[viewer] ?? ''),
        body: JSON.stringify({
          answers: [
            {
              id: randomUUID(),
              descriptorId: word,
              rating: ratings[i % ratings.length],
              answeredAt: new Date().toISOString(),
              durationMs: 2500,
            },
          ],
        }),
      })
      if (res.ok) {
        const body = (await res.clone().json()) as { results: { status: string }[] }
        if (body.results[0]?.status !== 'applied') notApplied += 1
      }
      return res
    }
    await paced(warmUp, RATE, answerOne)
    notApplied = 0
    offset = 0
    const answer = await paced(count, RATE, answerOne)
    const queue = await paced(QUEUE_RATE * 10, QUEUE_RATE, (i) =>
      fetch(`${app.base}/api/reviews/queue`, {
        method: 'POST',
        headers: json(viewers[i % VIEWERS] ?? ''),
        body: queueBody,
      }),
    )
    const failedAnswers = answer.failed + notApplied
    const within = (p99: number, failed: number) =>
      p99 <= BUDGET_MS && failed === 0 ? 'yes' : '**no**'
    return {
      markdown: [
        `## Reviews through the gateway (embedded defaults)`,
        '',
        `Open-loop: each request is timed from the moment it was due, so a queue shows. ${VIEWERS} viewers answering the cards of their queue (FSRS applied on the server, one answer per request, a sixth of them Again); an answer counts as failed unless the server reports it \`applied\`. Budget: an answer's p99 ≤ ${BUDGET_MS} ms at ${RATE} req/s (issue [14]).`,
        '',
        '| call | rate | requests | p50 | p99 | max | failed | within budget |',
        '|---|---|---|---|---|---|---|---|',
        `| \`POST /api/reviews\` (one answer) | ${RATE}/s | ${answer.sent} | ${ms(answer.p50)} | ${ms(answer.p99)} | ${ms(answer.max)} | ${failedAnswers} | ${within(answer.p99, failedAnswers)} |`,
        `| \`POST /api/reviews/queue\` (up to 200 cards) | ${QUEUE_RATE}/s | ${queue.sent} | ${ms(queue.p50)} | ${ms(queue.p99)} | ${ms(queue.max)} | ${queue.failed} | (no budget) |`,
        `| the load generator alone: a stand-in answering at once | ${RATE}/s | ${floor.sent} | ${ms(floor.p50)} | ${ms(floor.p99)} | ${ms(floor.max)} | ${floor.failed} | (what the tool adds) |`,
        `| self-check: a stand-in answering 40 ms late | ${RATE}/s | ${check.sent} | ${ms(check.p50)} | ${ms(check.p99)} | ${ms(check.max)} | ${check.failed} | must read ≥ 40 ms: ${check.p50 >= 40 ? 'yes' : '**no**'} |`,
        '',
      ].join('\n'),
    }
  } finally {
    await app.close()
  }
}
