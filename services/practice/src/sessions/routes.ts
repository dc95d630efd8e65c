// The sessions' handlers: a few lines each, the story is in sessions.ts (a session's life) and
// history.ts (what its owner reads of it).
import type { components } from '@crv/contracts'
import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { PracticeDeps } from '../deps.ts'
import { searchConcepts } from './concepts.ts'
import {
  accountDataOf,
  declareSeries,
  deleteAccountData,
  exportSessions,
  listSeries,
  listSessions,
  sessionOfViewer,
  statisticsOf,
} from './history.ts'
import { judgeSession, lockSession, saveWriteUp, startSession } from './sessions.ts'
import { startedView } from './views.ts'

type Schemas = components['schemas']

export function sessionHandlers(deps: PracticeDeps): Handlers {
  const { db, vocabulary, abandonAfterHours } = deps
  return defineHandlers('practice', {
    startPracticeSession: async ({ body = {}, user, request, reply }) => {
      const row = await startSession(db, {
        userId: user.id,
        poolId: body.poolId,
        candidates: body.candidates,
        latitude: body.latitude,
        longitude: body.longitude,
        siderealHours: deps.siderealHours,
        abandonAfterHours,
        draw: deps.draw,
      })
      request.log.info({ session: row.id }, 'practice session started')
      return reply.code(201).send(startedView(row))
    },

    exportPracticeAccountData: ({ user }) => accountDataOf(deps, user.id),

    deletePracticeAccountData: async ({ user, request, reply }) => {
      await deleteAccountData(deps, user.id, request.log)
      return reply.code(204).send()
    },

    listPracticeSessions: ({ user }) => listSessions(deps, user.id),

    getPracticeSession: ({ params, user }) => sessionOfViewer(deps, params.id, user.id),

    savePracticeWriteUp: async ({ params, body, user }) => {
      const saved = await saveWriteUp(
        db,
        params.id,
        user.id,
        body.writeUp,
        body.revision,
        abandonAfterHours,
      )
      return { revision: saved.revision, savedAt: saved.savedAt.toISOString() }
    },

    lockPracticeSession: async ({ params, user }) => {
      const { row, candidates } = await lockSession(db, params.id, user.id, {
        vocabulary,
        abandonAfterHours,
        siderealHours: deps.siderealHours,
      })
      return {
        writeUpSha256: row.write_up_sha256 ?? '',
        lockedAt: (row.locked_at ?? new Date()).toISOString(),
        candidates,
      } satisfies Schemas['PracticeLocked']
    },

    judgePracticeSession: ({ params, body, user }) =>
      judgeSession(db, params.id, user.id, body.ranking, { vocabulary, abandonAfterHours }),

    getPracticeStats: ({ query, user }) => statisticsOf(deps, user.id, query.familiarity),

    listPracticeSeries: ({ user }) => listSeries(deps, user.id),

    declarePracticeSeries: async ({ body, user, request, reply }) => {
      const series = await declareSeries(deps, user.id, body)
      request.log.info({ series: series.id }, 'practice series declared')
      return reply.code(201).send(series)
    },

    exportPracticeSessions: async ({ query, user, reply }) => {
      const file = await exportSessions(deps, user.id, query.format ?? 'json')
      const day = new Date().toISOString().slice(0, 10)
      reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="crv-practice-${day}.${file.format}"`)
      if (file.format === 'csv') return reply.type('text/csv; charset=utf-8').send(file.body)
      return reply.send(file.body)
    },

    searchPracticeConcepts: ({ query }) => searchConcepts(vocabulary, query),
  })
}
