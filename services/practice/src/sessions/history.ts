// What a viewer reads of their own sessions: the list, one session, the statistics, the export
// and their account's data; and their series. Only the owner reaches them; a target is named
// only once its session is judged.
import type { FastifyBaseLogger } from 'fastify'
import type { components } from '@crv/contracts'
import { AppError, toCsv } from '@crv/kit'
import { forgetContributionsOf } from '../contributions/contributions.ts'
import { contributionsOf } from '../contributions/repository.ts'
import { contributionView } from '../contributions/views.ts'
import type { PracticeDeps } from '../deps.ts'
import { targetsByIds } from '../pools/repository.ts'
import type { TargetRow } from '../pools/repository.ts'
import {
  allSessionsOf,
  closeAbandoned,
  closedSessionsOf,
  countSessionsOf,
  deleteSessionsOf,
  insertSeries,
  openSessionOf,
  seriesOf,
  sessionsOf,
} from './repository.ts'
import type { SeriesRow, SessionRow } from './repository.ts'
import { SENSORY_COLUMNS } from './scoring.ts'
import { ownSession } from './sessions.ts'
import { practiceStatistics } from './stats.ts'
import {
  EXPORT_HEADER,
  asStatsSession,
  exportRow,
  seriesView,
  sessionView,
  summaryOf,
} from './views.ts'

type Schemas = components['schemas']
type Deps = Pick<PracticeDeps, 'db' | 'abandonAfterHours'>

/** Targets of the sessions' sets: a target is named only in a judged session's summary. */
async function judgedTargets(deps: Deps, rows: SessionRow[]): Promise<Map<string, TargetRow>> {
  const ids = new Set<string>()
  for (const row of rows) {
    if (row.judged_at) ids.add(row.target_id)
    if (row.locked_at) for (const c of row.candidates ?? []) ids.add(c)
  }
  return targetsByIds(deps.db, [...ids])
}

/** The viewer's sessions past the limit closed as abandoned, before anything is read. */
const closeOverdue = (deps: Deps, userId: string) =>
  closeAbandoned(deps.db, deps.abandonAfterHours, userId)

export async function listSessions(
  deps: Deps,
  userId: string,
): Promise<Schemas['PracticeSessionSummary'][]> {
  await closeOverdue(deps, userId)
  const rows = await sessionsOf(deps.db, userId)
  const targets = await judgedTargets(deps, rows)
  return rows.map((r) => summaryOf(r, r.judged_at ? targets.get(r.target_id) : undefined))
}

/** One session of the viewer's; its set is read only once it is locked. */
export async function sessionOfViewer(
  deps: Deps,
  id: string,
  userId: string,
): Promise<Schemas['PracticeSession']> {
  await closeOverdue(deps, userId)
  const row = await ownSession(deps.db, id, userId)
  const targets =
    row.locked_at && row.candidates ? await targetsByIds(deps.db, row.candidates) : new Map()
  return sessionView(row, targets)
}

/** The statistics over every closed session, with the newest 1,000 sessions as the history. */
async function practiceStats(
  deps: Deps,
  userId: string,
  rows: SessionRow[],
  targets: Map<string, TargetRow>,
  familiarity?: Schemas['PracticeFamiliarity'],
): Promise<Schemas['PracticeStats']> {
  const [closed, total] = await Promise.all([
    closedSessionsOf(deps.db, { userId, familiarity }),
    countSessionsOf(deps.db, userId, familiarity),
  ])
  return {
    sessions: total,
    ...practiceStatistics(closed.map(asStatsSession), Object.keys(SENSORY_COLUMNS)),
    history: rows
      .filter((r) => !familiarity || r.familiarity === familiarity)
      .map((r) => summaryOf(r, r.judged_at ? targets.get(r.target_id) : undefined)),
  }
}

export async function statisticsOf(
  deps: Deps,
  userId: string,
  familiarity: Schemas['PracticeFamiliarity'] | undefined,
): Promise<Schemas['PracticeStats']> {
  await closeOverdue(deps, userId)
  const rows = await sessionsOf(deps.db, userId)
  return practiceStats(deps, userId, rows, await judgedTargets(deps, rows), familiarity)
}

/** The viewer's sessions as a file: CSV, or JSON with their statistics. */
export async function exportSessions(
  deps: Deps,
  userId: string,
  format: 'json' | 'csv',
): Promise<{ format: 'csv'; body: string } | { format: 'json'; body: Schemas['PracticeExport'] }> {
  const rows = await sessionsOf(deps.db, userId)
  const targets = await judgedTargets(deps, rows)
  const views = rows.map((r) => sessionView(r, targets))
  if (format === 'csv') return { format, body: toCsv(EXPORT_HEADER, views.map(exportRow)) }
  return {
    format,
    body: {
      exportedAt: new Date().toISOString(),
      statistics: await practiceStats(deps, userId, rows, targets),
      sessions: views,
    },
  }
}

/** The practice part of a user's export: a target is named only once its session is judged. */
export async function accountDataOf(deps: PracticeDeps, userId: string) {
  const [rows, contributions] = await Promise.all([
    allSessionsOf(deps.db, userId),
    contributionsOf(deps.db, userId, 100_000),
  ])
  return {
    sessions: rows.map((r) => ({
      id: r.id,
      trn: r.trn,
      startedAt: r.started_at.toISOString(),
      lockedAt: r.locked_at?.toISOString() ?? null,
      judgedAt: r.judged_at?.toISOString() ?? null,
      candidateCount: r.candidate_count,
      frontloading: r.frontloading,
      lstHours: r.lst_hours,
      writeUp: r.write_up,
      rank: r.rank,
      score: r.score,
      targetId: r.judged_at ? r.target_id : null,
    })),
    contributions: contributions.map(contributionView),
  }
}

/** Forgets the user's sessions, showings and contributions (their account is going). */
export async function deleteAccountData(
  deps: PracticeDeps,
  userId: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  await deleteSessionsOf(deps.db, userId)
  await forgetContributionsOf({ db: deps.db, storage: deps.storage, log }, userId)
}

/** A series with its result once complete (a p watched while it runs is not the series' p). */
async function seriesWithResult(deps: Deps, series: SeriesRow): Promise<Schemas['PracticeSeries']> {
  const complete = series.closed >= series.sessions
  return seriesView(
    series,
    complete ? await closedSessionsOf(deps.db, { seriesId: series.id }) : null,
  )
}

export async function listSeries(deps: Deps, userId: string): Promise<Schemas['PracticeSeries'][]> {
  await closeOverdue(deps, userId)
  const series = await seriesOf(deps.db, userId)
  return Promise.all(series.map((s) => seriesWithResult(deps, s)))
}

/** Declares a series, before its first session and only when no other one is running. */
export async function declareSeries(
  deps: Deps,
  userId: string,
  declared: Schemas['PracticeSeriesDeclare'],
): Promise<Schemas['PracticeSeries']> {
  await closeOverdue(deps, userId)
  const running = (await seriesOf(deps.db, userId)).find((s) => s.closed < s.sessions)
  if (running) {
    throw new AppError(
      'series_running',
      409,
      'Your declared series is not complete yet: finish it before declaring another.',
      { seriesId: running.id },
    )
  }
  const open = await openSessionOf(deps.db, userId)
  if (open) {
    throw new AppError(
      'session_open',
      409,
      'A series is declared before its first session: finish the open session first.',
      { sessionId: open.id },
    )
  }
  return seriesWithResult(deps, await insertSeries(deps.db, userId, declared))
}
