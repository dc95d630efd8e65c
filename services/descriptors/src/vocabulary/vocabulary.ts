// The trainer's vocabulary: the shared words (cached per language), each caller's own words and
// hides, and the rules for adding, deleting and hiding a word.
import { randomInt } from 'node:crypto'
import { acceptedEncoding, AppError, encodeBody, notFound } from '@crv/kit'
import type { AuthUser, ContentEncoding } from '@crv/kit'
import { isPostgresError } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { Deps } from '../deps.ts'
import {
  categoryNames,
  customDescriptorsOf,
  deleteWordAndConcept,
  findCategory,
  findDescriptor,
  hide,
  insertConcept,
  insertCustomWord,
  sharedWordIn,
  unhide,
} from './repository.ts'
import { OPEN_STAGE } from './shared-cache.ts'
import { foldWord } from './shipped.ts'
import type { Language } from './shipped.ts'
import { membershipsOf, userWordsCsv } from './views.ts'
import type { ApiDescriptor, Descriptor } from './views.ts'

type Schemas = components['schemas']
type Vocab = Pick<Deps, 'db' | 'shared' | 'users'>

/**
 * The bulk list for a caller, compressed for a phone on a slow network: the visitor's answer
 * once per snapshot (brotli or gzip), a signed-in caller's per request with the cheapest gzip
 * (about 0.1 ms). Assembled from the snapshot's serialised parts (docs/decisions.md: trainer
 * hot path).
 */
export async function bulkBody(
  { shared, users }: Vocab,
  user: AuthUser | null,
  language: Language,
  accepts: string | undefined,
): Promise<{ body: Buffer; coding: ContentEncoding | null }> {
  const snapshot = await shared.snapshot(language)
  if (!user) {
    const coding = acceptedEncoding(accepts, ['br', 'gzip'])
    if (!coding) return { body: snapshot.visitorBody, coding: null }
    return { body: snapshot.visitorBodyIn(coding), coding }
  }
  const { custom, hidden } = await users.get(user.id, language)
  const body = snapshot.bodyFor(custom, hidden)
  if (!acceptedEncoding(accepts, ['gzip'])) return { body, coding: null }
  return { body: encodeBody(body, 'gzip', 'each'), coding: 'gzip' }
}

export async function randomDescriptor(
  { shared, users }: Vocab,
  body: Schemas['RandomDescriptorRequest'],
  user: AuthUser | null,
): Promise<ApiDescriptor> {
  if (!user && body.stages.some((s) => s !== OPEN_STAGE)) {
    throw new AppError(
      'sign_in_required',
      401,
      'Sign in to train with Stage 2-3 and Stage 4-6 descriptors',
    )
  }
  const categoryIds = [...body.gestaltIds, ...body.perceptionIds]
  if (categoryIds.length === 0) {
    throw new AppError(
      'no_categories_selected',
      400,
      'Please select at least one gestalt or perception to train with.',
    )
  }
  // Drawn in memory from the cached vocabulary: one word per request on the trainer's
  // hot path; only the caller's own words and hides come from the database.
  const categories = new Set(categoryIds)
  const stages = new Set(body.stages)
  const fits = (d: Descriptor) =>
    membershipsOf(d).some((m) => categories.has(m.categoryId) && stages.has(m.stage))
  const [snapshot, mine] = await Promise.all([
    shared.snapshot(body.language),
    user ? users.get(user.id, body.language) : undefined,
  ])
  const pool = snapshot.pool(categories, stages, mine?.hidden)
  for (const d of mine?.custom ?? []) if (fits(d)) pool.push(d)
  // Never the same word twice in a row, unless it is the only one left.
  const others = pool.filter((d) => d.api.id !== body.excludeId)
  const choices = others.length > 0 ? others : pool
  const found = choices[randomInt(0, Math.max(choices.length, 1))]
  if (!found)
    throw new AppError(
      'no_descriptors',
      404,
      'No descriptors available for the selected categories.',
    )
  return found.api
}

/** A caller's own word, pending until an administrator approves it. */
export async function addWord(
  { db, users }: Vocab,
  body: Schemas['CreateDescriptorRequest'],
  user: AuthUser,
): Promise<ApiDescriptor> {
  const word = body.word.trim().replace(/\s+/g, ' ')
  if (!word) throw new AppError('word_required', 400, 'Please enter a word')
  const wanted =
    'gestaltId' in body && body.gestaltId
      ? { id: body.gestaltId, type: 'gestalt' }
      : { id: 'perceptionId' in body ? body.perceptionId : 0, type: 'perception' }
  const category = await findCategory(db, wanted.id)
  if (!category || category.type !== wanted.type) throw notFound(`No such ${wanted.type}`)
  // 'Animal' beside the system's 'animal' would be a second card for one word.
  // A shipped word counts in each category it stands in (soft is in Textures too).
  const existing = await sharedWordIn(db, category.id, body.language, foldWord(word))
  if (existing) {
    throw new AppError('descriptor_exists', 409, `"${existing.word}" is already in this category`)
  }
  try {
    const created = await db.transaction(async (tx) => {
      const concept = await insertConcept(tx, category.id)
      return insertCustomWord(tx, {
        conceptId: concept,
        categoryId: category.id,
        language: body.language,
        word,
        wordKey: foldWord(word),
        userId: user.id,
      })
    })
    users.forget(user.id)
    const descriptor = await findDescriptor(db, created)
    if (!descriptor) throw new Error('created descriptor not found')
    return descriptor.api
  } catch (err) {
    if (isPostgresError(err, '23505')) {
      throw new AppError(
        'duplicate_descriptor',
        409,
        'You already added this word to this category',
      )
    }
    throw err
  }
}

/** The caller's own word, or any word for an administrator. */
export async function deleteWord({ db, shared, users }: Vocab, id: number, user: AuthUser) {
  const descriptor = await findDescriptor(db, id)
  const own = descriptor?.api.isCustom && descriptor.api.createdBy === user.id
  // Someone else's descriptor is 'not found' to a user: its existence is not theirs to know.
  if (!descriptor || (!own && user.role !== 'admin')) throw notFound('Descriptor not found')
  // A custom word is a concept of its own: it goes with its descriptor.
  await deleteWordAndConcept(db, descriptor.api.id)
  // A pending word is its author's alone; a shared one changes everyone's view.
  if (descriptor.api.status === 'pending' && descriptor.api.createdBy)
    users.forget(descriptor.api.createdBy)
  else shared.invalidate(descriptor.api.language)
}

/** Hidden from the caller's trainer, or shown again. */
export async function toggleHidden(
  { db, users }: Vocab,
  id: number,
  user: AuthUser,
): Promise<{ hidden: boolean }> {
  const descriptor = await findDescriptor(db, id)
  if (!descriptor || descriptor.api.status === 'pending') throw notFound('Descriptor not found')
  if (descriptor.api.isCustom && descriptor.api.status !== 'approved') {
    throw new AppError('not_hideable', 409, 'Your own words cannot be hidden; delete them instead')
  }
  if (await unhide(db, user.id, descriptor.api.id)) {
    users.forget(user.id)
    return { hidden: false }
  }
  await hide(db, user.id, descriptor.api.id)
  users.forget(user.id)
  return { hidden: true }
}

export async function userWords({ db }: Vocab, userId: string): Promise<ApiDescriptor[]> {
  return (await customDescriptorsOf(db, userId)).map((d) => d.api)
}

/** The caller's words in a language as CSV, with their categories' names in it. */
export async function userWordsExport(
  { db }: Vocab,
  userId: string,
  language: Language,
): Promise<string> {
  const names = await categoryNames(db, language)
  const mine = await customDescriptorsOf(db, userId, language)
  return userWordsCsv(mine, names)
}
