// Spaced repetition through the gateway on the embedded defaults: review answers at a steady
// 100 requests/s (the budget of issue [14]: p99 ≤ 30 ms) and the review queue, open-loop like
// the practice scenario (each request timed from the moment it was due). An answer counts as
// failed unless the server says it was applied. The self-check paces a stand-in that answers
// 40 ms late and must report it. Then the costliest batch (issue [23], item 3): the largest
// accepted size with every answer older than all the card already holds, three times over, each
// timed alone with the descriptors service's CPU time; it must stay within 1 s and not grow as
// the card's history does. And what one step of a replay costs that service's thread.
import { randomUUID } from 'node:crypto'
import { ms, treeMemory, verdict, withStandIn } from '../lib.ts'
import type { Section } from '../lib.ts'
import { STEPS_PER_REQUEST } from '../../services/descriptors/src/reviews/reviews.ts'
import { startApp } from './app.ts'
import type { RunningApp } from './app.ts'
import { paced } from './practice.ts'
import { replayStepCosts } from './review-steps.ts'
import type { StepCost } from './review-steps.ts'

const RATE = 100
const SECONDS = 20
const BUDGET_MS = 30
const VIEWERS = 20
const QUEUE_RATE = 50
/** The contract's largest batch, and the most answers to one word it records. */
const BATCH = 500
const PER_WORD = 50
const BATCH_BUDGET_MS = 1000
/** Answers each word of the last cases already holds: more than a request steps through. */
const HELD = 1_950
/** A batch's time may vary this much on a busy machine without counting as growth. */
const NOISE_MS = 250

function standIn(lateMs: number) {
  return withStandIn(lateMs, (base) => paced(300, RATE, () => fetch(`${base}/`)))
}

interface Batch {
  ms: number
  status: number
  recorded: number
  /** The descriptors service's CPU time while it was answered (10 ms ticks of /proc). */
  cpuMs: number
}

/** CPU seconds the descriptors service has used so far. */
async function descriptorsCpu(app: RunningApp): Promise<number> {
  const tree = await treeMemory(app.process.pid ?? 0)
  return tree.find((p) => p.name === 'descriptors')?.cpuSeconds ?? NaN
}

/**
 * `BATCH` answers spread over `words`, each older than every answer sent before it (`spacingMs`
 * apart, from `newest` back): a batch reaches back past all that its cards hold after `newest`,
 * so each replays it. Sent one at a time.
 */
async function reverseBatches(
  app: RunningApp,
  token: string,
  words: number[],
  rounds: number,
  newest = Date.now() - 3_600_000,
  spacingMs = 60_000,
): Promise<Batch[]> {
  const batches: Batch[] = []
  let sent = 0
  for (let round = 0; round < rounds; round++) {
    const answers = Array.from({ length: BATCH }, (_, i) => ({
      id: randomUUID(),
      descriptorId: words[i % words.length] ?? 0,
      rating: (['good', 'again', 'hard', 'easy'] as const)[i % 4],
      answeredAt: new Date(newest - (sent + i) * spacingMs).toISOString(),
    }))
    sent += BATCH
    const cpuBefore = await descriptorsCpu(app)
    const started = performance.now()
    const res = await fetch(`${app.base}/api/reviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ answers }),
      signal: AbortSignal.timeout(120_000),
    })
    const body = (await res.json()) as { results?: { status: string }[] }
    const elapsed = performance.now() - started
    batches.push({
      ms: elapsed,
      status: res.status,
      recorded: body.results?.filter((r) => r.status === 'applied').length ?? 0,
      cpuMs: ((await descriptorsCpu(app)) - cpuBefore) * 1000,
    })
  }
  return batches
}

/** When `history` gave its answers: the first, and the time between two. */
const HISTORY_START_MS = Date.now() - 30 * 86_400_000
const historyStep = (perWord: number) => (29 * 86_400_000) / perWord

/** `perWord` answers to each word, in time order over the past month (the cheap way in). */
async function history(base: string, token: string, words: number[], perWord: number) {
  const start = HISTORY_START_MS
  const step = historyStep(perWord)
  for (let from = 0; from < perWord; from += PER_WORD) {
    const answers = words.flatMap((descriptorId) =>
      Array.from({ length: Math.min(PER_WORD, perWord - from) }, (_, i) => ({
        id: randomUUID(),
        descriptorId,
        rating: (['good', 'again', 'hard', 'easy'] as const)[(from + i) % 4],
        answeredAt: new Date(start + (from + i) * step).toISOString(),
      })),
    )
    const res = await fetch(`${base}/api/reviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ answers }),
    })
    if (!res.ok) throw new Error(`history: ${res.status} ${await res.text()}`)
  }
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
    // The costliest batches, on a viewer of their own, after the steady run.
    const attacker = await app.signIn('+15550409999')
    const [oneWord = 0, ...others] = cards[0] ?? []
    const single = await reverseBatches(app, attacker, [oneWord], 3)
    const wide = BATCH / PER_WORD
    const spread = await reverseBatches(app, attacker, [oneWord, ...others].slice(0, wide), 3)
    // Ten other words, each holding more answers than a request steps through: batches reaching
    // back past all of them, then batches placed just before each word's last five (answers a
    // second apart), replayed from the card the answer before them left.
    const full = others.slice(wide, 2 * wide)
    await history(app.base, attacker, full, HELD)
    const held = await reverseBatches(app, attacker, full, 3, Date.now() - 31 * 86_400_000)
    const lastFive = HISTORY_START_MS + (HELD - 5.5) * historyStep(HELD)
    const late = await reverseBatches(app, attacker, full, 3, lastFive, 1_000)
    const [atBudget, atOldBudget] = replayStepCosts([STEPS_PER_REQUEST, 20_000])
    const perStep = (cost: StepCost | undefined) => ((cost?.ms ?? NaN) * 1000) / (cost?.steps ?? 1)
    const failedAnswers = answer.failed + notApplied
    const within = (p99: number, failed: number) =>
      p99 <= BUDGET_MS && failed === 0 ? 'yes' : '**no**'
    const batches = (
      [
        [`${BATCH} answers to one word`, single],
        [`${BATCH} answers to ${BATCH / PER_WORD} words, ${PER_WORD} each`, spread],
        [
          `${BATCH} answers to ${BATCH / PER_WORD} words holding ${HELD.toLocaleString('en')} answers each`,
          held,
        ],
        [`the same words, ${BATCH} answers placed before each one's last five`, late],
      ] as const
    ).map(([name, runs]) => {
      const [a, , c] = runs
      const ok =
        runs.every((r) => r.status === 200 && r.ms <= BATCH_BUDGET_MS) &&
        (c?.ms ?? Infinity) <= 2 * (a?.ms ?? 0) + NOISE_MS
      return { name, runs, ok }
    })
    const stepCheck = (atBudget?.twiceMs ?? 0) >= 1.5 * (atBudget?.ms ?? Infinity)
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
        `The costliest batch (issue [23], item 3): ${BATCH} answers, the largest the contract accepts, each older than every answer sent before it, so each batch reaches back past the whole history of its cards; three batches in a row, one at a time, on a viewer of their own, each with the descriptors service's CPU time while it was answered (\`/proc\`, 10 ms ticks). At most ${PER_WORD} answers to one word are recorded per request (the earliest), and words only while the answers the request steps through (its new ones, and the stored ones after the earliest of them, replayed from the card the answer before it left) add up to ${STEPS_PER_REQUEST.toLocaleString('en')}; the client's outbox sends the rest again. Budget: each batch ≤ ${BATCH_BUDGET_MS} ms, the third no slower than twice the first (plus ${NOISE_MS} ms of a busy machine's noise).`,
        '',
        '| batch | 1st | 2nd | 3rd | service CPU | status | answers recorded | within budget |',
        '|---|---|---|---|---|---|---|---|',
        ...batches.map(({ name, runs, ok }) => {
          const [a, b, c] = runs
          return `| ${name} | ${ms(a?.ms ?? NaN)} | ${ms(b?.ms ?? NaN)} | ${ms(c?.ms ?? NaN)} | ${runs.map((r) => ms(r.cpuMs)).join(', ')} | ${runs.map((r) => r.status).join(', ')} | ${runs.map((r) => r.recorded).join(', ')} | ${ok ? 'yes' : '**no**'} |`
        }),
        '',
        `One step of a replay (ts-fsrs \`next\` with fuzz and one stored time read, answers shaped as the attack run's batches), CPU time in a process of its own with the services' V8 flags: **${perStep(atBudget).toFixed(1)} µs** a step, ${ms(atBudget?.ms ?? NaN)} for the ${STEPS_PER_REQUEST.toLocaleString('en')} a request may take (${ms(atOldBudget?.ms ?? NaN)} for the 20,000 it took before). Self-check: each step taken twice reads ${ms(atBudget?.twiceMs ?? NaN)} (must read ≥ 1.5×): ${stepCheck ? 'yes' : '**no**'}.`,
        '',
        verdict(
          `issue [14], an answer's p99 ≤ ${BUDGET_MS} ms at ${RATE} requests/s, none failed, and issue [23], each costliest batch ≤ ${BATCH_BUDGET_MS} ms and not growing (DESIGN.md §7 sets none)`,
          [
            {
              what: `an answer's p99 ${ms(answer.p99)}, ${failedAnswers} failed`,
              ok: answer.p99 <= BUDGET_MS && failedAnswers === 0,
            },
            ...batches.map(({ name, ok }) => ({ what: `batch: ${name}`, ok })),
            {
              what: `a stand-in 40 ms late read p50 ${ms(check.p50)}`,
              ok: check.p50 >= 40,
              selfCheck: true,
            },
            {
              what: `each replay step taken twice read ${ms(atBudget?.twiceMs ?? NaN)} against ${ms(atBudget?.ms ?? NaN)}`,
              ok: stepCheck,
              selfCheck: true,
            },
          ],
        ),
        '',
      ].join('\n'),
    }
  } finally {
    await app.close()
  }
}
