import { State } from 'ts-fsrs'
import type { Card } from 'ts-fsrs'
import type { components } from '@crv/contracts'
import { fromPostgresTimestamp } from '@crv/kit/db'

type Schemas = components['schemas']

const STATES: Schemas['ReviewState'][] = ['new', 'learning', 'review', 'relearning']

export interface CardRow {
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

export const toCard = (row: CardRow): Card => ({
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

/** The card a stored answer left, read back: ts-fsrs's card after it, to the bit. */
export interface AfterRow {
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

export const afterCard = (row: AfterRow, answeredAt: Date): Card => ({
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
