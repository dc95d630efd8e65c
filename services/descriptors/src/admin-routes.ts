import type { FastifyBaseLogger } from 'fastify'
import { AppError, defineHandlers, notFound, toCsv } from '@crv/kit'
import type { AuthUser, Handlers, TokenVerifier } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import {
  databaseSize,
  deleteConcepts,
  descriptorCounts,
  exportRows,
  listAllDescriptors,
  logAction,
  optimizeTables,
  recentActions,
  tableStats,
} from './admin-repository.ts'
import { analyticsSummary, EventRateLimiter, storeEvents } from './analytics.ts'
import type { Forwarder } from './analytics.ts'
import { findDescriptor } from './repository.ts'
import { seedVocabulary } from './seed.ts'
import { readSettings, writeSettings } from './settings.ts'
import type { SharedVocabulary } from './shared-cache.ts'
import type { Vocabulary } from './vocabulary.ts'

export interface AdminDeps {
  db: Database
  shared: SharedVocabulary
  verifyToken: TokenVerifier
  log: FastifyBaseLogger
  loadVocabulary: () => Vocabulary
  eventsPerMinute: number
  forwarder: Forwarder | null
}

/** Administration: descriptor management, settings, maintenance, figures and analytics. */
export function adminHandlers(deps: AdminDeps): Handlers {
  const { db, shared, log } = deps
  const limiter = new EventRateLimiter(deps.eventsPerMinute)

  /** The sender of an event batch: the verified header token, else the body's, else nobody. */
  const senderOf = async (user: AuthUser | null, token: string | undefined) => {
    if (user) return user.id
    if (!token) return null
    return deps
      .verifyToken(token)
      .then((user) => user.id)
      .catch(() => null)
  }

  return defineHandlers('descriptors', {
    listAdminDescriptors: async ({ query }) => {
      // The contract's defaults (the request check fills them in).
      const page = query.page ?? 1
      const limit = query.limit ?? 50
      const { descriptors, total } = await listAllDescriptors(db, { ...query, page, limit })
      return {
        descriptors: descriptors.map((d) => d.api),
        pagination: {
          page,
          limit,
          total,
          totalPages: Math.ceil(total / limit),
        },
      }
    },

    bulkDeleteDescriptors: async ({ body, request }) => {
      const { descriptorIds } = body
      const { deleted, languages } = await deleteConcepts(db, descriptorIds)
      for (const language of languages) shared.invalidate(language)
      request.log.info({ descriptorIds, deleted }, 'descriptors deleted in every language')
      return { totalDeleted: deleted }
    },

    deleteDescriptorAllLanguages: async ({ params, request }) => {
      const { id } = params
      if (!(await findDescriptor(db, id))) throw notFound('Descriptor not found')
      const { deleted, languages } = await deleteConcepts(db, [id])
      for (const language of languages) shared.invalidate(language)
      request.log.info({ descriptorId: id, deleted }, 'descriptor deleted in every language')
      return { deletedCount: deleted }
    },

    exportAllDescriptors: async ({ query, user, reply }) => {
      const { format } = query
      const descriptors = await exportRows(db)
      await logAction(db, 'export', user.id, `${descriptors.length} descriptors as ${format}`)
      log.info({ userId: user.id, format, count: descriptors.length }, 'descriptors exported')
      const date = new Date().toISOString().slice(0, 10)
      reply
        .header('content-disposition', `attachment; filename="crv_descriptors_${date}.${format}"`)
        .header('cache-control', 'no-store')
      if (format === 'json') {
        return { exportedAt: new Date().toISOString(), count: descriptors.length, descriptors }
      }
      const csv = toCsv(
        [
          'ID',
          'Concept',
          'Word',
          'Language',
          'Status',
          'Type',
          'Stage',
          'Category',
          'Created By',
          'Created At',
        ],
        descriptors.map((d) => [
          String(d.id),
          String(d.conceptId),
          d.word,
          d.language,
          d.status,
          d.type,
          d.stage,
          d.category,
          d.createdBy ?? '',
          d.createdAt,
        ]),
      )
      // Sent as bytes: the JSON response check applies to JSON bodies only.
      return reply.header('content-type', 'text/csv; charset=utf-8').send(Buffer.from(csv, 'utf8'))
    },

    getAppSettings: async ({ reply }) => {
      reply.header('cache-control', 'no-cache')
      return readSettings(db)
    },

    updateAppSettings: async ({ body, user }) => {
      const saved = await writeSettings(db, body, user.id)
      await logAction(
        db,
        'settings',
        user.id,
        `language ${saved.defaultLanguage}, stage ${saved.defaultStage}, tachistoscope for ${saved.tachistoscopeAccess === 'admin' ? 'administrators' : 'signed-in users'}`,
      )
      log.info({ userId: user.id, settings: saved }, 'settings saved')
      return saved
    },

    getAdminStats: async () => {
      const [descriptors, tables, databaseBytes, actions] = await Promise.all([
        descriptorCounts(db),
        tableStats(db),
        databaseSize(db),
        recentActions(db),
      ])
      const bySchema = new Map<string, number>()
      for (const t of tables) bySchema.set(t.schema, (bySchema.get(t.schema) ?? 0) + t.bytes)
      return {
        descriptors,
        tables,
        databaseBytes,
        schemas: [...bySchema].map(([schema, bytes]) => ({ schema, bytes })),
        recentActions: actions,
        measuredAt: new Date().toISOString(),
      }
    },

    seedDatabase: async ({ user }) => {
      const vocabulary = deps.loadVocabulary()
      const report = await seedVocabulary(db, vocabulary, true)
      shared.invalidate()
      const words = vocabulary.concepts.reduce((n, c) => n + Object.keys(c.words).length, 0)
      const result = {
        categories: report.categories,
        concepts: report.concepts,
        added: report.descriptors,
        changed: report.changed,
        unchanged: Math.max(words - report.descriptors - report.changed, 0),
      }
      await logAction(
        db,
        'seed',
        user.id,
        `${result.added} added, ${result.changed} changed, ${result.unchanged} unchanged`,
      )
      log.info({ userId: user.id, ...result }, 'vocabulary seeded by an administrator')
      return result
    },

    optimizeTables: async ({ user }) => {
      const result = await optimizeTables(db)
      await logAction(
        db,
        'optimize',
        user.id,
        `${result.tables} tables in ${result.schemas.join(', ')}`,
      )
      log.info({ userId: user.id, ...result }, 'tables optimized')
      return result
    },

    recordEvents: async ({ body, user, request, reply }) => {
      const wait = limiter.take(request.ip, body.events.length)
      if (wait > 0) {
        reply.header('retry-after', String(wait))
        throw new AppError('rate_limited', 429, 'Too many requests. Please try again later', {
          retryAfterSeconds: wait,
        })
      }
      const userId = await senderOf(user, body.accessToken)
      const accepted = await storeEvents(db, body.events, userId)
      if (deps.forwarder) {
        deps
          .forwarder(body.events, { userAgent: request.headers['user-agent'], ip: request.ip })
          .catch((err: Error) => log.warn({ err: err.message }, 'analytics forwarding failed'))
      }
      return reply.code(202).send({ accepted })
    },

    getAnalyticsSummary: async () => analyticsSummary(db),
  })
}
