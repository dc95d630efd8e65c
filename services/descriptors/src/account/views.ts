import type { components } from '@crv/contracts'
import { fromPostgresTimestamp } from '@crv/kit/db'
import type { AccountRows } from './repository.ts'

type Data = components['schemas']['DescriptorAccountData']

const STATES = ['new', 'learning', 'review', 'relearning'] as const
const RATINGS = ['again', 'hard', 'good', 'easy'] as const

const iso = (value: string | Date) => fromPostgresTimestamp(value).toISOString()

export function accountDataOf({
  customWords,
  hidden,
  cards,
  answers,
  sessions,
}: AccountRows): Data {
  return {
    customWords: customWords.map((r) => ({
      id: Number(r.id),
      language: r.language,
      category: r.category,
      word: r.word,
      status: r.status,
      createdAt: iso(r.created_at),
    })),
    hidden: hidden.map((r) => ({
      descriptorId: Number(r.descriptor_id),
      language: r.language,
      word: r.word,
      hiddenAt: iso(r.created_at),
    })),
    reviewCards: cards.map((r) => ({
      descriptorId: Number(r.descriptor_id),
      language: r.language,
      word: r.word,
      state: STATES[r.state] ?? 'new',
      due: iso(r.due),
      stability: Number(r.stability),
      difficulty: Number(r.difficulty),
      reps: r.reps,
      lapses: r.lapses,
      lastReview: r.last_review === null ? null : iso(r.last_review),
    })),
    reviewAnswers: answers.map((r) => ({
      id: r.id,
      descriptorId: Number(r.descriptor_id),
      language: r.language,
      rating: RATINGS[r.rating - 1] ?? 'good',
      answeredAt: iso(r.answered_at),
      durationMs: r.duration_ms,
    })),
    trainingSessions: sessions.map((r) => ({
      id: r.id,
      activity: r.activity,
      startedAt: iso(r.started_at),
      durationMs: r.duration_ms,
      details: r.details,
    })),
  }
}
