import type { components } from '@crv/contracts'
import { AppError, defineHandlers, notFound, toCsv } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Pool } from '@crv/kit/db'
import { forgetContributionsOf } from './contributions/contributions.ts'
import { contributionsOf } from './contributions/repository.ts'
import { contributionView } from './contributions/views.ts'
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
  targetByImageKey,
  targetsByIds,
} from './repository.ts'
import type { ClosedSessionRow, SeriesRow, SessionRow, TargetRow } from './repository.ts'
import type { Score, WriteUp } from './scoring.ts'
import { SENSORY_COLUMNS } from './scoring.ts'
import { imageObjectKey } from './seed.ts'
import {
  candidatesIn,
  imageUrlOf,
  judgeSession,
  lockSession,
  ownSession,
  revealOf,
  saveWriteUp,
  startSession,
} from './sessions.ts'
import { practiceStatistics, rankStatistics } from './stats.ts'
import type { StatsSession } from './stats.ts'
import { LANGUAGES } from './vocabulary.ts'
import type { PracticeDeps } from './deps.ts'

type Schemas = components['schemas']

/** Whether the session's pictures may have been shown to its viewer before. */
export const picturesSeenOf = (row: SessionRow): Schemas['PracticePicturesSeen'] => ({
  familiarity: row.familiarity,
  lastShownAt: row.last_shown_at?.toISOString() ?? null,
})

const statusOf = (row: SessionRow): Schemas['PracticeSessionStatus'] =>
  row.judged_at ? 'judged' : row.abandoned_at ? 'abandoned' : row.locked_at ? 'locked' : 'open'

/** A session as its owner sees it: before the lock nothing of the target, not even a candidate. */
async function sessionView(
  deps: PracticeDeps,
  row: SessionRow,
  targets?: Map<string, TargetRow>,
): Promise<Schemas['PracticeSession']> {
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
  const known = targets ?? (await targetsByIds(deps.db, row.candidates))
  view.candidates = candidatesIn(row, known)
  if (!row.judged_at || !row.ranking || !row.score) return view
  view.judgedAt = row.judged_at.toISOString()
  view.ranking = row.ranking
  const target = known.get(row.target_id)
  if (target) view.reveal = revealOf(row, target, known, row.score as Score)
  return view
}

function summaryOf(
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

/** Targets of the sessions' sets: a target is named only in a judged session's summary. */
async function judgedTargets(db: Pool, rows: SessionRow[]): Promise<Map<string, TargetRow>> {
  const ids = new Set<string>()
  for (const row of rows) {
    if (row.judged_at) ids.add(row.target_id)
    if (row.locked_at) for (const c of row.candidates ?? []) ids.add(c)
  }
  return targetsByIds(db, [...ids])
}

const asStatsSession = (r: ClosedSessionRow): StatsSession => ({
  candidates: r.candidate_count as 5 | 10,
  status: r.abandoned ? 'abandoned' : 'judged',
  rank: r.abandoned ? null : r.rank,
  analyticRank: r.abandoned ? null : r.analytic_rank,
  lockLstHours: r.lock_lst_hours,
  figureOfMerit: r.figure_of_merit,
  chanceFigureOfMerit: r.chance_figure_of_merit,
  byCategory: r.by_category,
})

/** The statistics over every closed session, with the newest 1,000 sessions as the history. */
export async function practiceStats(
  db: Pool,
  userId: string,
  rows: SessionRow[],
  targets: Map<string, TargetRow>,
  familiarity?: Schemas['PracticeFamiliarity'],
): Promise<Schemas['PracticeStats']> {
  const [closed, total] = await Promise.all([
    closedSessionsOf(db, { userId, familiarity }),
    countSessionsOf(db, userId, familiarity),
  ])
  return {
    sessions: total,
    ...practiceStatistics(closed.map(asStatsSession), Object.keys(SENSORY_COLUMNS)),
    history: rows
      .filter((r) => !familiarity || r.familiarity === familiarity)
      .map((r) => summaryOf(r, r.judged_at ? targets.get(r.target_id) : undefined)),
  }
}

async function seriesView(db: Pool, series: SeriesRow): Promise<Schemas['PracticeSeries']> {
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
    result: complete
      ? rankStatistics(
          (await closedSessionsOf(db, { seriesId: series.id })).map(asStatsSession),
          series.judging,
        )
      : null,
  }
}

const EXPORT_HEADER = [
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

function exportRow(view: Schemas['PracticeSession']): string[] {
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

export function practiceHandlers(deps: PracticeDeps): Handlers {
  const { db, vocabulary } = deps
  return defineHandlers('practice', {
    startPracticeSession: async ({ body = {}, user, request, reply }) => {
      const hasPosition = body.latitude !== undefined && body.longitude !== undefined
      const lstHours = hasPosition
        ? deps.siderealHours(body.latitude as number, body.longitude as number)
        : null
      const row = await startSession(db, {
        userId: user.id,
        poolId: body.poolId,
        candidates: body.candidates,
        lstHours,
        ...(hasPosition ? { latitude: body.latitude, longitude: body.longitude } : {}),
        abandonAfterHours: deps.abandonAfterHours,
        draw: deps.draw,
      })
      request.log.info({ session: row.id }, 'practice session started')
      return reply.code(201).send({
        id: row.id,
        trn: row.trn,
        commitment: row.commitment,
        candidateCommitment: row.candidate_commitment ?? '',
        startedAt: row.started_at.toISOString(),
        lstHours: row.lst_hours,
        candidateCount: row.candidate_count as 5 | 10,
        frontloading: row.frontloading,
        picturesSeen: picturesSeenOf(row),
      } satisfies Schemas['PracticeSessionStarted'])
    },

    // The practice part of a user's export: a target is named only once its session is judged.
    exportPracticeAccountData: async ({ user }) => {
      const userId = user.id
      const [rows, contributions] = await Promise.all([
        allSessionsOf(db, userId),
        contributionsOf(deps.database, userId, 100_000),
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
    },

    deletePracticeAccountData: async ({ user, request, reply }) => {
      await deleteSessionsOf(db, user.id)
      await forgetContributionsOf(
        { db: deps.database, storage: deps.storage, log: request.log },
        user.id,
      )
      return reply.code(204).send()
    },

    listPracticeSessions: async ({ user }) => {
      await closeAbandoned(db, deps.abandonAfterHours, user.id)
      const rows = await sessionsOf(db, user.id)
      const targets = await judgedTargets(db, rows)
      return rows.map((r) => summaryOf(r, r.judged_at ? targets.get(r.target_id) : undefined))
    },

    getPracticeSession: async ({ params, user }) => {
      await closeAbandoned(db, deps.abandonAfterHours, user.id)
      return sessionView(deps, await ownSession(db, params.id, user.id))
    },

    savePracticeWriteUp: async ({ params, body, user }) => {
      const saved = await saveWriteUp(
        db,
        params.id,
        user.id,
        body.writeUp,
        body.revision,
        deps.abandonAfterHours,
      )
      return { revision: saved.revision, savedAt: saved.savedAt.toISOString() }
    },

    lockPracticeSession: async ({ params, user }) => {
      const { row, candidates } = await lockSession(db, params.id, user.id, {
        vocabulary,
        abandonAfterHours: deps.abandonAfterHours,
        siderealHours: deps.siderealHours,
      })
      return {
        writeUpSha256: row.write_up_sha256 ?? '',
        lockedAt: (row.locked_at ?? new Date()).toISOString(),
        candidates,
      } satisfies Schemas['PracticeLocked']
    },

    judgePracticeSession: ({ params, body, user }) =>
      judgeSession(db, params.id, user.id, body.ranking, {
        vocabulary,
        abandonAfterHours: deps.abandonAfterHours,
      }),

    getPracticeStats: async ({ query, user }) => {
      await closeAbandoned(db, deps.abandonAfterHours, user.id)
      const rows = await sessionsOf(db, user.id)
      return practiceStats(db, user.id, rows, await judgedTargets(db, rows), query.familiarity)
    },

    listPracticeSeries: async ({ user }) => {
      await closeAbandoned(db, deps.abandonAfterHours, user.id)
      const series = await seriesOf(db, user.id)
      return Promise.all(series.map((s) => seriesView(db, s)))
    },

    declarePracticeSeries: async ({ body, user, request, reply }) => {
      const userId = user.id
      await closeAbandoned(db, deps.abandonAfterHours, userId)
      const running = (await seriesOf(db, userId)).find((s) => s.closed < s.sessions)
      if (running) {
        throw new AppError(
          'series_running',
          409,
          'Your declared series is not complete yet: finish it before declaring another.',
          { seriesId: running.id },
        )
      }
      const open = await openSessionOf(db, userId)
      if (open) {
        throw new AppError(
          'session_open',
          409,
          'A series is declared before its first session: finish the open session first.',
          { sessionId: open.id },
        )
      }
      const series = await insertSeries(db, userId, body)
      request.log.info({ series: series.id }, 'practice series declared')
      return reply.code(201).send(await seriesView(db, series))
    },

    exportPracticeSessions: async ({ query, user, reply }) => {
      const { format = 'json' } = query
      const userId = user.id
      const rows = await sessionsOf(db, userId)
      const targets = await judgedTargets(db, rows)
      const views = await Promise.all(rows.map((r) => sessionView(deps, r, targets)))
      const day = new Date().toISOString().slice(0, 10)
      reply.header('cache-control', 'no-store')
      if (format === 'csv') {
        return reply
          .header('content-disposition', `attachment; filename="crv-practice-${day}.csv"`)
          .type('text/csv; charset=utf-8')
          .send(toCsv(EXPORT_HEADER, views.map(exportRow)))
      }
      return reply
        .header('content-disposition', `attachment; filename="crv-practice-${day}.json"`)
        .send({
          exportedAt: new Date().toISOString(),
          statistics: await practiceStats(db, userId, rows, targets),
          sessions: views,
        } satisfies Schemas['PracticeExport'])
    },

    getPracticeImage: async ({ params, reply }) => {
      const target = await targetByImageKey(db, params.key)
      // A deleted target's picture is gone for everyone, whether or not a session held it.
      const found =
        target && !target.deleted_at
          ? await deps.storage.get(imageObjectKey(target.image_key))
          : null
      if (!found) throw notFound('Image not found')
      return reply
        .type('image/jpeg')
        .header('content-length', String(found.info.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('etag', found.info.etag)
        .send(found.body)
    },

    searchPracticeConcepts: ({ query: q }) => {
      const language = q.language && LANGUAGES.includes(q.language) ? q.language : 'en'
      const concepts = q.ids
        ? q.ids.split(',').flatMap((id) => vocabulary.get(id) ?? [])
        : vocabulary.search(q.q ?? '', {
            ...(q.category ? { category: q.category } : {}),
            limit: q.limit ?? 20,
          })
      return concepts.map((c) => ({
        conceptId: c.id,
        category: c.category,
        word: c.words[language] ?? c.words.en ?? c.id,
        words: c.words,
      }))
    },
  })
}
