import type { FastifyReply, FastifyRequest } from 'fastify'
import type { components } from '@crv/contracts'
import { AppError, notFound, toCsv } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Pool } from '@crv/kit/db'
import type { ObjectStorage } from '@crv/kit/storage'
import {
  allSessionsOf,
  countSessionsOf,
  deleteSessionsOf,
  sessionsOf,
  targetByImageKey,
  targetsByIds,
} from './repository.ts'
import type { SessionRow, TargetRow } from './repository.ts'
import type { Score, WriteUp } from './scoring.ts'
import { SENSORY_COLUMNS } from './scoring.ts'
import { imageObjectKey } from './seed.ts'
import {
  imageUrlOf,
  judgeSession,
  lockSession,
  ownSession,
  revealOf,
  saveWriteUp,
  startSession,
} from './sessions.ts'
import { inLstWindow, LST_WINDOW, rankStatistics } from './stats.ts'
import type { JudgedSession } from './stats.ts'
import type { TrialService } from './trial.ts'
import { LANGUAGES } from './vocabulary.ts'
import type { Language, Vocabulary } from './vocabulary.ts'

type Schemas = components['schemas']

export interface PracticeDeps {
  db: Pool
  storage: ObjectStorage
  vocabulary: Vocabulary
  trials: TrialService
  /** Local sidereal time in hours at a position, or null when it cannot be had. */
  siderealHours: (latitude: number, longitude: number) => Promise<number | null>
}

const userOf = (request: FastifyRequest) => {
  const user = request.user
  if (!user) throw new AppError('unauthorized', 401, 'Sign-in required')
  return user
}

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
    startedAt: row.started_at.toISOString(),
    lstHours: row.lst_hours,
    latitude: row.latitude,
    longitude: row.longitude,
    candidateCount: row.candidate_count as 5 | 10,
    frontloading: row.frontloading,
    status: row.judged_at ? 'judged' : row.locked_at ? 'locked' : 'open',
    writeUp: row.write_up as WriteUp,
    revision: row.revision,
    updatedAt: row.updated_at.toISOString(),
  }
  if (!row.locked_at || !row.candidates) return view
  view.lockedAt = row.locked_at.toISOString()
  if (row.write_up_sha256) view.writeUpSha256 = row.write_up_sha256
  const known = targets ?? (await targetsByIds(deps.db, row.candidates))
  view.candidates = row.candidates.flatMap((id) => {
    const t = known.get(id)
    return t ? [{ id: t.id, imageUrl: imageUrlOf(t.image_key), tags: t.tags }] : []
  })
  if (!row.judged_at || !row.ranking || !row.score) return view
  view.judgedAt = row.judged_at.toISOString()
  view.ranking = row.ranking
  const target = known.get(row.target_id)
  if (target) view.reveal = revealOf(row, target, row.score as Score)
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
    status: row.judged_at ? 'judged' : row.locked_at ? 'locked' : 'open',
    candidateCount: row.candidate_count as 5 | 10,
  }
  if (row.judged_at && row.rank && target) {
    summary.judgedAt = row.judged_at.toISOString()
    summary.rank = row.rank
    summary.figureOfMerit = (row.score as Score | null)?.figureOfMerit ?? 0
    summary.title = target.title
    summary.imageUrl = imageUrlOf(target.image_key)
  }
  return summary
}

/** Targets of judged sessions only: an open or locked session's target stays sealed. */
async function judgedTargets(db: Pool, rows: SessionRow[]): Promise<Map<string, TargetRow>> {
  const ids = new Set<string>()
  for (const row of rows) {
    if (row.judged_at) ids.add(row.target_id)
    for (const c of row.candidates ?? []) ids.add(c)
  }
  return targetsByIds(db, [...ids])
}

export function practiceStats(
  rows: SessionRow[],
  targets: Map<string, TargetRow>,
  total: number,
): Schemas['PracticeStats'] {
  const judged = rows.filter((r) => r.judged_at && r.rank)
  const asJudged = (r: SessionRow): JudgedSession => ({
    candidates: r.candidate_count,
    rank: r.rank ?? 0,
    lstHours: r.lst_hours,
  })
  const all = rankStatistics(judged.map(asJudged))
  const window = (list: SessionRow[]) => {
    const s = rankStatistics(list.map(asJudged))
    return { sessions: s.sessions, meanRank: s.meanRank, hits: s.hits, z: s.z }
  }
  const withLst = judged.filter((r) => r.lst_hours !== null)
  const byCategory = Object.keys(SENSORY_COLUMNS).map((category) => {
    let sessions = 0
    let matched = 0
    for (const r of judged) {
      const c = (r.score as Score | null)?.byCategory?.[category]
      if (!c || c.described === 0) continue
      sessions += 1
      if (c.matched > 0) matched += 1
    }
    return { category, sessions, matched }
  })
  const foms = judged.map((r) => (r.score as Score | null)?.figureOfMerit ?? 0)
  return {
    sessions: total,
    judged: judged.length,
    sumOfRanks: all.sumOfRanks,
    expectedSumOfRanks: all.expectedSumOfRanks,
    z: all.z,
    effectSize: all.effectSize,
    hits: all.hits,
    expectedHits: all.expectedHits,
    hitsP: all.hitsP,
    meanFigureOfMerit:
      foms.length > 0
        ? Math.round((foms.reduce((a, b) => a + b, 0) / foms.length) * 10_000) / 10_000
        : null,
    significanceShown: judged.length >= 10,
    byCategory,
    sidereal: {
      windowCentreHours: LST_WINDOW.centreHours,
      windowHalfWidthHours: LST_WINDOW.halfWidthHours,
      inside: window(withLst.filter((r) => inLstWindow(r.lst_hours ?? 0))),
      outside: window(withLst.filter((r) => !inLstWindow(r.lst_hours ?? 0))),
      unknown: judged.length - withLst.length,
    },
    history: rows.map((r) => summaryOf(r, r.judged_at ? targets.get(r.target_id) : undefined)),
  }
}

const EXPORT_HEADER = [
  'trn',
  'started_at_utc',
  'lst_hours',
  'status',
  'candidates',
  'rank',
  'accuracy',
  'reliability',
  'figure_of_merit',
  'target',
  'described',
  'matched',
  'summary',
  'commitment',
  'nonce',
  'write_up_sha256',
]

function exportRow(view: Schemas['PracticeSession']): string[] {
  const reveal = view.reveal
  return [
    view.trn,
    view.startedAt,
    view.lstHours === null ? '' : view.lstHours.toFixed(4),
    view.status,
    String(view.candidateCount),
    reveal ? String(reveal.rank) : '',
    reveal ? String(reveal.score.accuracy) : '',
    reveal ? String(reveal.score.reliability) : '',
    reveal ? String(reveal.score.figureOfMerit) : '',
    reveal?.title ?? '',
    reveal ? reveal.score.described.join(' ') : '',
    reveal ? reveal.score.matched.join(' ') : '',
    view.writeUp.summary ?? '',
    view.commitment,
    reveal?.nonce ?? '',
    view.writeUpSha256 ?? '',
  ]
}

export function practiceHandlers(deps: PracticeDeps): Handlers {
  const { db, vocabulary } = deps
  return {
    startPracticeSession: async (request, reply) => {
      const user = userOf(request)
      const body = (request.body ?? {}) as Schemas['PracticeStartRequest']
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
      })
      request.log.info({ session: row.id }, 'practice session started')
      return reply.code(201).send({
        id: row.id,
        trn: row.trn,
        commitment: row.commitment,
        startedAt: row.started_at.toISOString(),
        lstHours: row.lst_hours,
        candidateCount: row.candidate_count as 5 | 10,
        frontloading: row.frontloading,
      } satisfies Schemas['PracticeSessionStarted'])
    },

    // The practice part of a user's export: a target is named only once its session is judged.
    exportPracticeAccountData: async (request) => {
      const rows = await allSessionsOf(db, userOf(request).id)
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
      }
    },

    deletePracticeAccountData: async (request, reply) => {
      await deleteSessionsOf(db, userOf(request).id)
      return reply.code(204).send()
    },

    listPracticeSessions: async (request) => {
      const rows = await sessionsOf(db, userOf(request).id)
      const targets = await judgedTargets(db, rows)
      return rows.map((r) => summaryOf(r, r.judged_at ? targets.get(r.target_id) : undefined))
    },

    getPracticeSession: async (request) => {
      const { id } = request.params as { id: string }
      return sessionView(deps, await ownSession(db, id, userOf(request).id))
    },

    savePracticeWriteUp: async (request) => {
      const { id } = request.params as { id: string }
      const body = request.body as Schemas['PracticeWriteUpSave']
      const saved = await saveWriteUp(db, id, userOf(request).id, body.writeUp, body.revision)
      return { revision: saved.revision, savedAt: saved.savedAt.toISOString() }
    },

    lockPracticeSession: async (request) => {
      const { id } = request.params as { id: string }
      const { row, candidates } = await lockSession(db, id, userOf(request).id)
      return {
        writeUpSha256: row.write_up_sha256 ?? '',
        lockedAt: (row.locked_at ?? new Date()).toISOString(),
        candidates,
      } satisfies Schemas['PracticeLocked']
    },

    judgePracticeSession: async (request) => {
      const { id } = request.params as { id: string }
      const { ranking } = request.body as Schemas['PracticeJudgeRequest']
      return judgeSession(db, id, userOf(request).id, ranking, vocabulary)
    },

    getPracticeStats: async (request) => {
      const userId = userOf(request).id
      const [rows, total] = await Promise.all([sessionsOf(db, userId), countSessionsOf(db, userId)])
      return practiceStats(rows, await judgedTargets(db, rows), total)
    },

    exportPracticeSessions: async (request, reply: FastifyReply) => {
      const { format = 'json' } = request.query as { format?: 'json' | 'csv' }
      const rows = await sessionsOf(db, userOf(request).id)
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
      const total = await countSessionsOf(db, userOf(request).id)
      return reply
        .header('content-disposition', `attachment; filename="crv-practice-${day}.json"`)
        .send({
          exportedAt: new Date().toISOString(),
          statistics: practiceStats(rows, targets, total),
          sessions: views,
        } satisfies Schemas['PracticeExport'])
    },

    getPracticeImage: async (request, reply) => {
      const { key } = request.params as { key: string }
      const target = await targetByImageKey(db, key)
      const found = target ? await deps.storage.get(imageObjectKey(target.image_key)) : null
      if (!found) throw notFound('Image not found')
      return reply
        .type('image/jpeg')
        .header('content-length', String(found.info.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('etag', found.info.etag)
        .send(found.body)
    },

    searchPracticeConcepts: async (request) => {
      const q = request.query as {
        q?: string
        language?: Language
        category?: string
        limit?: number
      }
      const language = q.language && LANGUAGES.includes(q.language) ? q.language : 'en'
      return vocabulary
        .search(q.q ?? '', {
          ...(q.category ? { category: q.category } : {}),
          limit: q.limit ?? 20,
        })
        .map((c) => ({
          conceptId: c.id,
          category: c.category,
          word: c.words[language] ?? c.words.en ?? c.id,
          words: c.words,
        }))
    },

    ...deps.trials.handlers(),
  }
}
