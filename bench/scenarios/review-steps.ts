// What one step of a review replay costs the descriptors service's thread (issue [23] item 3):
// ts-fsrs's `next` with fuzz and one stored time read, as services/descriptors/src/reviews/reviews.ts
// runs them, over answers shaped as the attack run's batches (ten words, a minute apart, the four
// ratings in turn). Timed in CPU time (process.cpuUsage) in a process of its own with the
// services' V8 flags, so a busy machine or the bench's own flags do not count. The self-check
// takes each step twice and must read at least 1.5 times as much.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createEmptyCard } from 'ts-fsrs'
import type { Card, Grade } from 'ts-fsrs'
import { scheduler } from '../../services/descriptors/src/reviews/reviews.ts'
import { fromPostgresTimestamp } from '../../packages/kit/src/timestamps.ts'
import { SERVICE_NODE_FLAGS } from '../../scripts/lib/node-flags.ts'

export interface StepCost {
  steps: number
  /** Median CPU time of a pass through all the steps, in ms. */
  ms: number
  /** The same with each step taken twice: the self-check. */
  twiceMs: number
}

const WORDS = 10
const ROUNDS = 31

function measure(steps: number): StepCost {
  const t0 = Date.parse('2026-06-01T00:00:00Z')
  // As PostgreSQL prints a timestamptz, which the replay reads back field by field.
  const printed = (at: number) => new Date(at).toISOString().replace('T', ' ').replace('Z', '+00')
  const history = Array.from({ length: steps }, (_, i) => ({
    word: i % WORDS,
    rating: (1 + (i % 4)) as Grade,
    answeredAt: printed(t0 + Math.floor(i / WORDS) * 60_000),
  })).sort((a, b) => a.word - b.word)
  const pass = (twice: boolean) => () => {
    const cards = new Map<number, Card>()
    for (const answer of history) {
      const at = fromPostgresTimestamp(answer.answeredAt)
      const card: Card = cards.get(answer.word) ?? createEmptyCard(at)
      if (twice) scheduler.next(card, at, answer.rating)
      cards.set(answer.word, scheduler.next(card, at, answer.rating).card)
    }
  }
  const median = (run: () => void) => {
    for (let i = 0; i < 20; i++) run()
    const times = Array.from({ length: ROUNDS }, () => {
      const before = process.cpuUsage()
      run()
      const used = process.cpuUsage(before)
      return (used.user + used.system) / 1000
    }).sort((a, b) => a - b)
    return times[Math.floor(ROUNDS / 2)] ?? NaN
  }
  return { steps, ms: median(pass(false)), twiceMs: median(pass(true)) }
}

/** CPU per replay step at each of these request sizes, measured in a process of its own. */
export function replayStepCosts(sizes: number[]): StepCost[] {
  const run = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, fileURLToPath(import.meta.url)], {
    env: { ...process.env, CRV_REPLAY_STEPS: JSON.stringify(sizes) },
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`review steps: ${run.stderr}`)
  return JSON.parse(run.stdout) as StepCost[]
}

if (process.env.CRV_REPLAY_STEPS) {
  const sizes = JSON.parse(process.env.CRV_REPLAY_STEPS) as number[]
  process.stdout.write(JSON.stringify(sizes.map(measure)))
}
