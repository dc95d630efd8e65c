// Moderation: users' pending words, every descriptor at once, the shipped vocabulary seeded
// again, the tables' figures and upkeep. Every change to the shared vocabulary drops its cache.
import { AppError, notFound } from '@crv/kit'
import type { AuthUser } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { Deps } from '../deps.ts'
import { findDescriptor, pendingDescriptors } from '../vocabulary/repository.ts'
import { seedVocabulary } from '../vocabulary/seed.ts'
import type { Language } from '../vocabulary/shipped.ts'
import type { ApiDescriptor } from '../vocabulary/views.ts'
import {
  approve,
  databaseSize,
  deleteConceptRows,
  deleteWord,
  deleteWordsOfConcepts,
  descriptorCounts,
  exportRows,
  listAllDescriptors,
  logAction,
  optimizeTables as vacuumTables,
  recentActions,
  tableStats,
} from './repository.ts'
import type { AdminListQuery } from './repository.ts'
import { actionOf, exportRowOf } from './views.ts'

type Schemas = components['schemas']
type Db = Pick<Deps, 'db'>

export async function pendingWords({ db }: Db): Promise<ApiDescriptor[]> {
  return (await pendingDescriptors(db)).map((d) => d.api)
}

/** A pending word, or 404 / 409. */
async function pending({ db }: Db, id: number) {
  const descriptor = await findDescriptor(db, id)
  if (!descriptor) throw notFound('Descriptor not found')
  if (descriptor.api.status !== 'pending')
    throw new AppError('not_pending', 409, 'This descriptor is not pending')
  return descriptor
}

export async function promote(
  deps: Pick<Deps, 'db' | 'shared'>,
  id: number,
): Promise<ApiDescriptor> {
  const descriptor = await pending(deps, id)
  await approve(deps.db, descriptor.api.id)
  deps.shared.invalidate(descriptor.api.language)
  return { ...descriptor.api, status: 'approved' as const }
}

export async function reject(deps: Pick<Deps, 'db' | 'users'>, id: number): Promise<void> {
  const descriptor = await pending(deps, id)
  await deleteWord(deps.db, descriptor.api.id)
  if (descriptor.api.createdBy) deps.users.forget(descriptor.api.createdBy)
}

export async function adminList(
  { db }: Db,
  query: Omit<AdminListQuery, 'page' | 'limit'> & { page?: number; limit?: number },
) {
  // The contract's defaults (the request check fills them in).
  const page = query.page ?? 1
  const limit = query.limit ?? 50
  const { descriptors, total } = await listAllDescriptors(db, { ...query, page, limit })
  return {
    descriptors: descriptors.map((d) => d.api),
    pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
  }
}

/**
 * Deletes the concepts of the given descriptors in every language, with every user's hides of
 * those words (they cascade), in one transaction: if any step fails, nothing is deleted. A
 * custom word is a concept of its own, so it goes alone. Ids that do not exist are skipped.
 */
export async function deleteConcepts(
  deps: Pick<Deps, 'db' | 'shared'>,
  descriptorIds: number[],
): Promise<number> {
  const { deleted, languages } = await deps.db.transaction(async (tx) => {
    const gone = await deleteWordsOfConcepts(tx, descriptorIds)
    const concepts = [...new Set(gone.map((r) => Number(r.concept_id)))]
    if (concepts.length > 0) await deleteConceptRows(tx, concepts)
    return { deleted: gone.length, languages: new Set<Language>(gone.map((r) => r.language)) }
  })
  for (const language of languages) deps.shared.invalidate(language)
  return deleted
}

export async function deleteInEveryLanguage(
  deps: Pick<Deps, 'db' | 'shared'>,
  id: number,
): Promise<number> {
  if (!(await findDescriptor(deps.db, id))) throw notFound('Descriptor not found')
  return deleteConcepts(deps, [id])
}

/** Every descriptor, for the full export (logged). */
export async function exportAll(
  { db, log }: Pick<Deps, 'db' | 'log'>,
  user: AuthUser,
  format: 'csv' | 'json',
): Promise<Schemas['DescriptorExportRow'][]> {
  const descriptors = (await exportRows(db)).map(exportRowOf)
  await logAction(db, 'export', user.id, `${descriptors.length} descriptors as ${format}`)
  log.info({ userId: user.id, format, count: descriptors.length }, 'descriptors exported')
  return descriptors
}

export async function adminStats({ db }: Db) {
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
    recentActions: actions.map(actionOf),
    measuredAt: new Date().toISOString(),
  }
}

/** The shipped vocabulary seeded again, whatever the last seed's files were (logged). */
export async function seedAgain(
  { db, shared, log, loadVocabulary }: Pick<Deps, 'db' | 'shared' | 'log' | 'loadVocabulary'>,
  user: AuthUser,
) {
  const vocabulary = loadVocabulary()
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
}

/** Every table of the app's schemas vacuumed and analysed (logged). */
export async function optimize({ db, log }: Pick<Deps, 'db' | 'log'>, user: AuthUser) {
  const result = await vacuumTables(db)
  await logAction(
    db,
    'optimize',
    user.id,
    `${result.tables} tables in ${result.schemas.join(', ')}`,
  )
  log.info({ userId: user.id, ...result }, 'tables optimized')
  return result
}
