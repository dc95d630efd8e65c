import { randomInt } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { acceptedEncoding, AppError, defineHandlers, encodeBody, notFound, toCsv } from '@crv/kit'
import type { AuthUser, Handlers } from '@crv/kit'
import { isPostgresError, rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import { customDescriptorsOf, findCategory, findDescriptor, membershipsOf } from './repository.ts'
import type { Descriptor } from './repository.ts'
import { OPEN_STAGE } from './shared-cache.ts'
import type { SharedVocabulary } from './shared-cache.ts'
import type { UserStates } from './user-cache.ts'
import { foldWord } from './vocabulary.ts'

export function descriptorHandlers(
  db: Database,
  shared: SharedVocabulary,
  users: UserStates,
): Handlers {
  const ownOrAdminDelete = async (id: number, user: AuthUser) => {
    const descriptor = await findDescriptor(db, id)
    const own = descriptor?.api.isCustom && descriptor.api.createdBy === user.id
    // Someone else's descriptor is 'not found' to a user: its existence is not theirs to know.
    if (!descriptor || (!own && user.role !== 'admin')) throw notFound('Descriptor not found')
    // A custom word is a concept of its own: it goes with its descriptor.
    await db.execute(sql`
      WITH gone AS (DELETE FROM descriptors.descriptors WHERE id = ${descriptor.api.id} RETURNING concept_id)
      DELETE FROM descriptors.concepts c USING gone WHERE c.id = gone.concept_id AND c.slug IS NULL`)
    // A pending word is its author's alone; a shared one changes everyone's view.
    if (descriptor.api.status === 'pending' && descriptor.api.createdBy)
      users.forget(descriptor.api.createdBy)
    else shared.invalidate(descriptor.api.language)
  }

  return defineHandlers('descriptors', {
    listGestalts: async ({ query }) => shared.categories('gestalt', query.language ?? 'en'),
    listPerceptions: async ({ query }) => shared.categories('perception', query.language ?? 'en'),

    getBulkDescriptors: async ({ query, user, request, reply }) => {
      const language = query.language ?? 'en'
      const snapshot = await shared.snapshot(language)
      // Per caller: a browser must not serve one user's (or a visitor's) copy to another.
      reply
        .header('cache-control', 'private, max-age=300')
        .header('vary', 'Authorization, Accept-Encoding')
        .type('application/json; charset=utf-8')
      // Compressed for a phone on a slow network: the visitor's answer once per snapshot (brotli
      // or gzip), a signed-in caller's per request with the cheapest gzip (about 0.1 ms).
      const accepts = request.headers['accept-encoding']
      // Assembled from the snapshot's serialised parts (docs/decisions.md: trainer hot path).
      if (!user) {
        const coding = acceptedEncoding(accepts, ['br', 'gzip'])
        if (!coding) return reply.send(snapshot.visitorBody)
        return reply.header('content-encoding', coding).send(snapshot.visitorBodyIn(coding))
      }
      const { custom, hidden } = await users.get(user.id, language)
      const body = snapshot.bodyFor(custom, hidden)
      if (!acceptedEncoding(accepts, ['gzip'])) return reply.send(body)
      return reply.header('content-encoding', 'gzip').send(encodeBody(body, 'gzip', 'each'))
    },

    getRandomDescriptor: async ({ body, user }) => {
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
    },

    createDescriptor: async ({ body, user, reply }) => {
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
      const [existing] = await rows<{ word: string }>(
        db,
        sql`
        SELECT word FROM descriptors.descriptors
        WHERE (category_id = ${category.id} OR concept_id IN (
                 SELECT concept_id FROM descriptors.concept_categories WHERE category_id = ${category.id}))
          AND language = ${body.language}
          AND word_key = ${foldWord(word)} AND (NOT is_custom OR status = 'approved')
        LIMIT 1`,
      )
      if (existing) {
        throw new AppError(
          'descriptor_exists',
          409,
          `"${existing.word}" is already in this category`,
        )
      }
      try {
        const created = await db.transaction(async (tx) => {
          const [concept] = await rows<{ id: number }>(
            tx,
            sql`INSERT INTO descriptors.concepts (category_id, pos) VALUES (${category.id}, 'noun') RETURNING id`,
          )
          const [row] = await rows<{ id: string }>(
            tx,
            sql`
              INSERT INTO descriptors.descriptors (concept_id, category_id, language, word, word_key, status, created_by, is_custom)
              VALUES (${concept?.id}, ${category.id}, ${body.language}, ${word}, ${foldWord(word)}, 'pending', ${user.id}, true)
              RETURNING id`,
          )
          return Number(row?.id)
        })
        users.forget(user.id)
        const descriptor = await findDescriptor(db, created)
        if (!descriptor) throw new Error('created descriptor not found')
        return reply.code(201).send(descriptor.api)
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
    },

    deleteDescriptor: async ({ params, user, reply }) => {
      await ownOrAdminDelete(params.id, user)
      return reply.code(204).send()
    },
    directDeleteDescriptor: async ({ params, user, reply }) => {
      await ownOrAdminDelete(params.id, user)
      return reply.code(204).send()
    },

    toggleDescriptorHidden: async ({ params, user }) => {
      const descriptor = await findDescriptor(db, params.id)
      if (!descriptor || descriptor.api.status === 'pending') throw notFound('Descriptor not found')
      if (descriptor.api.isCustom && descriptor.api.status !== 'approved') {
        throw new AppError(
          'not_hideable',
          409,
          'Your own words cannot be hidden; delete them instead',
        )
      }
      const removed = await db.execute(
        sql`DELETE FROM descriptors.hidden WHERE user_id = ${user.id} AND descriptor_id = ${descriptor.api.id} RETURNING 1`,
      )
      if ((removed.rowCount ?? 0) > 0) {
        users.forget(user.id)
        return { hidden: false }
      }
      await db.execute(
        sql`INSERT INTO descriptors.hidden (user_id, descriptor_id) VALUES (${user.id}, ${descriptor.api.id}) ON CONFLICT DO NOTHING`,
      )
      users.forget(user.id)
      return { hidden: true }
    },

    listUserDescriptors: async ({ user }) =>
      (await customDescriptorsOf(db, user.id)).map((d) => d.api),

    exportUserDescriptors: async ({ query, user, reply }) => {
      const { language } = query
      const names = new Map(
        (
          await rows<{ id: number; name: string }>(
            db,
            sql`
        SELECT c.id, COALESCE(n.name, en.name) AS name FROM descriptors.categories c
        JOIN descriptors.category_names en ON en.category_id = c.id AND en.language = 'en'
        LEFT JOIN descriptors.category_names n ON n.category_id = c.id AND n.language = ${language}`,
          )
        ).map((r) => [Number(r.id), String(r.name)]),
      )
      const mine = await customDescriptorsOf(db, user.id, language)
      const csv = toCsv(
        ['ID', 'Word', 'Language', 'Status', 'Gestalt Name', 'Perception Name'],
        mine.map(({ api }) => [
          String(api.id),
          api.word,
          api.language,
          api.status,
          api.gestaltId ? (names.get(api.gestaltId) ?? '') : '',
          api.perceptionId ? (names.get(api.perceptionId) ?? '') : '',
        ]),
      )
      const date = new Date().toISOString().slice(0, 10)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="my_descriptors_${language}_${date}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(csv)
    },
  })
}
