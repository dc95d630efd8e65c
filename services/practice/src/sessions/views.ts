// Sessions and series as the contract shows them to their owner (row -> schema).
import type { components } from '@crv/contracts'
import type { TargetRow } from '../pools/repository.ts'
import { candidateCommitmentOf } from './candidate-sets.ts'
import type { ClosedSessionRow, SeriesRow, SessionRow } from './repository.ts'
import type { Score, WriteUp } from './scoring.ts'
import { rankStatistics } from './stats.ts'
import type { StatsSession } from './stats.ts'

type Schemas = components['schemas']

export const imageUrlOf = (imageKey: string) => `/api/practice/images/${imageKey}`

export function candidateOf(target: TargetRow): Schemas['PracticeCandidate'] {
  return {
    id: target.id,
    imageUrl: imageUrlOf(target.image_key),
    imageSha256: target.image_sha256,
    tags: target.tags,
  }
}

/** The session's candidates in the order shown (none before the lock). */
export function candidatesIn(
  row: SessionRow,
  targets: Map<string, TargetRow>,
): Schemas['PracticeCandidate'][] {
  if (!row.locked_at) return []
  return (row.candidates ?? []).flatMap((id) => {
    const t = targets.get(id)
    return t ? [candidateOf(t)] : []
  })
}

export function revealOf(
  row: SessionRow,
  target: TargetRow,
  candidates: Map<string, TargetRow>,
  score: Score,
) {
  const hashes = (row.candidates ?? []).flatMap((id) => {
    const hash = candidates.get(id)?.image_sha256
    return hash ? [hash] : []
  })
  return {
    targetId: target.id,
    imageSha256: target.image_sha256,
    nonce: row.nonce,
    commitment: row.commitment,
    // Sessions locked before sets were committed: the check is made on the set shown.
    candidateCommitment: row.candidate_commitment ?? candidateCommitmentOf(hashes, row.nonce),
    candidateImageSha256: [...hashes].sort(),
    rank: row.rank ?? 0,
    analyticRank: row.analytic_rank ?? Math.ceil(row.candidate_count / 2),
    chanceFigureOfMerit: row.chance_figure_of_merit ?? 0,
    candidates: row.candidate_count as 5 | 10,
    imageUrl: imageUrlOf(target.image_key),
    title: target.title,
    feedback: target.feedback,
    tags: target.tags,
    licence: target.licence,
    source: target.source,
    attribution: target.attribution,
    writeUpSha256: row.write_up_sha256 ?? '',
    score,
  } satisfies Schemas['PracticeReveal']
}

/** Whether the session's pictures may have been shown to its viewer before. */
export const picturesSeenOf = (row: SessionRow): Schemas['PracticePicturesSeen'] => ({
  familiarity: row.familiarity,
  lastShownAt: row.last_shown_at?.toISOString() ?? null,
})

const statusOf = (row: SessionRow): Schemas['PracticeSessionStatus'] =>
  row.judged_at ? 'judged' : row.abandoned_at ? 'abandoned' : row.locked_at ? 'locked' : 'open'

/** A session as its owner sees it: before the lock nothing of the target, not even a candidate. */
export function sessionView(
  row: SessionRow,
  known: Map<string, TargetRow>,
): Schemas['PracticeSession'] {
  const view: Schemas['PracticeSession'] = {
    id: row.id,
    trn: row.trn,
    commitment: row.commitment,
    candidateCommitment: row.candidate_commitment,
    startedAt: row.started_at.toISOString(),
    lstHours: row.lst_hours,
    lockLstHours: row.lock_lst_hours,
    latitude: row.latitude,
    longitude: row.longitude,
    candidateCount: row.candidate_count as 5 | 10,
    frontloading: row.frontloading,
    status: statusOf(row),
    writeUp: row.write_up as WriteUp,
    revision: row.revision,
    updatedAt: row.updated_at.toISOString(),
    seriesId: row.series_id,
    picturesSeen: picturesSeenOf(row),
  }
  if (row.abandoned_at) view.abandonedAt = row.abandoned_at.toISOString()
  if (!row.locked_at || !row.candidates) return view
  view.lockedAt = row.locked_at.toISOString()
  if (row.write_up_sha256) view.writeUpSha256 = row.write_up_sha256
  view.candidates = candidatesIn(row, known)
  if (!row.judged_at || !row.ranking || !row.score) return view
  view.judgedAt = row.judged_at.toISOString()
  view.ranking = row.ranking
  const target = known.get(row.target_id)
  if (target) view.reveal = revealOf(row, target, known, row.score as Score)
  return view
}

export function summaryOf(
  row: SessionRow,
  target: TargetRow | undefined,
): Schemas['PracticeSessionSummary'] {
  const summary: Schemas['PracticeSessionSummary'] = {
    id: row.id,
    trn: row.trn,
    startedAt: row.started_at.toISOString(),
    lstHours: row.lst_hours,
    lockLstHours: row.lock_lst_hours,
    status: statusOf(row),
    candidateCount: row.candidate_count as 5 | 10,
    picturesSeen: picturesSeenOf(row),
  }
  if (row.abandoned_at) summary.abandonedAt = row.abandoned_at.toISOString()
  if (row.judged_at && row.rank && target) {
    summary.judgedAt = row.judged_at.toISOString()
    summary.rank = row.rank
    summary.figureOfMerit = (row.score as Score | null)?.figureOfMerit ?? 0
    if (row.chance_figure_of_merit !== null) {
      summary.chanceFigureOfMerit = row.chance_figure_of_merit
    }
    if (row.analytic_rank !== null) summary.analyticRank = row.analytic_rank
    summary.title = target.title
    summary.imageUrl = imageUrlOf(target.image_key)
  }
  return summary
}

export const asStatsSession = (r: ClosedSessionRow): StatsSession => ({
  candidates: r.candidate_count as 5 | 10,
  status: r.abandoned ? 'abandoned' : 'judged',
  rank: r.abandoned ? null : r.rank,
  analyticRank: r.abandoned ? null : r.analytic_rank,
  lockLstHours: r.lock_lst_hours,
  figureOfMerit: r.figure_of_merit,
  chanceFigureOfMerit: r.chance_figure_of_merit,
  byCategory: r.by_category,
})

export const EXPORT_HEADER = [
  'trn',
  'started_at_utc',
  'lst_hours',
  'locked_at_utc',
  'lock_lst_hours',
  'status',
  'candidates',
  'rank',
  'analytic_rank',
  'accuracy',
  'reliability',
  'figure_of_merit',
  'chance_figure_of_merit',
  'target',
  'described',
  'matched',
  'summary',
  'commitment',
  'candidate_commitment',
  'nonce',
  'write_up_sha256',
]

export function exportRow(view: Schemas['PracticeSession']): string[] {
  const reveal = view.reveal
  return [
    view.trn,
    view.startedAt,
    view.lstHours === null ? '' : view.lstHours.toFixed(4),
    view.lockedAt ?? '',
    view.lockLstHours === null ? '' : view.lockLstHours.toFixed(4),
    view.status,
    String(view.candidateCount),
    reveal ? String(reveal.rank) : '',
    reveal ? String(reveal.analyticRank) : '',
    reveal ? String(reveal.score.accuracy) : '',
    reveal ? String(reveal.score.reliability) : '',
    reveal ? String(reveal.score.figureOfMerit) : '',
    reveal ? String(reveal.chanceFigureOfMerit) : '',
    reveal?.title ?? '',
    reveal ? reveal.score.described.join(' ') : '',
    reveal ? reveal.score.matched.join(' ') : '',
    view.writeUp.summary ?? '',
    view.commitment,
    view.candidateCommitment ?? '',
    reveal?.nonce ?? '',
    view.writeUpSha256 ?? '',
  ]
}

/** A series; its result is given only once it is complete, from its closed sessions. */
export function seriesView(
  series: SeriesRow,
  closed: ClosedSessionRow[] | null,
): Schemas['PracticeSeries'] {
  const complete = series.closed >= series.sessions
  return {
    id: series.id,
    declaredAt: series.declared_at.toISOString(),
    sessions: series.sessions,
    candidates: series.candidate_count as 5 | 10,
    judging: series.judging,
    started: series.started,
    closed: series.closed,
    complete,
    // Shown only once complete: a p watched while the series runs is not the p of the series.
    result: complete ? rankStatistics((closed ?? []).map(asStatsSession), series.judging) : null,
  }
}

/** A session just started: its commitments, nothing of its set. */
export const startedView = (row: SessionRow): Schemas['PracticeSessionStarted'] => ({
  id: row.id,
  trn: row.trn,
  commitment: row.commitment,
  candidateCommitment: row.candidate_commitment ?? '',
  startedAt: row.started_at.toISOString(),
  lstHours: row.lst_hours,
  candidateCount: row.candidate_count as 5 | 10,
  frontloading: row.frontloading,
  picturesSeen: picturesSeenOf(row),
})
