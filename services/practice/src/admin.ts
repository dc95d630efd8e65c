// Target pools for administrators. No answer depends on which candidate of a set is a session's
// target: a set is drawn whole at the start, a target's `sessions` counts the sets it is in, a
// target in any set cannot be deleted (409, the same for every candidate), retiring one only
// keeps it out of new sets, and every set stays servable until its session is gone.
import type { components } from '@crv/contracts'
import { AppError, defineHandlers, notFound } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Database, Pool } from '@crv/kit/db'
import { prepareImage } from '@crv/kit/images'
import type { ObjectStorage } from '@crv/kit/storage'
import { hashMissing } from './near-duplicates/backfill.ts'
import { nearestDuplicate, perceptualHashOf } from './near-duplicates/perceptual-hash.ts'
import { poolHashes } from './near-duplicates/repository.ts'
import { poolExists, targetById, withTransaction } from './repository.ts'
import type { TargetRow } from './repository.ts'
import { imageObjectKey } from './seed.ts'
import { sha256Hex } from './sealing.ts'
import { imageUrlOf } from './sessions.ts'
import { addTargets } from './target-import/add-targets.ts'
import type { NewTarget } from './target-import/add-targets.ts'
import { needsAttribution } from './target-import/licences.ts'
import { nearDuplicate, nearDuplicateInUpload } from './target-import/reasons.ts'
import type { Reason } from './target-import/reasons.ts'
import type { Vocabulary } from './vocabulary.ts'

type Schemas = components['schemas']

export interface AdminDeps {
  db: Pool
  /** The same database through Drizzle, for the parts written in that style (near-duplicates). */
  database: Database
  storage: ObjectStorage
  vocabulary: Vocabulary
  limits: { maxBytes: number; maxPixels: number }
}

type TargetWithUse = TargetRow & { sessions: number }

// `@>` and not `= ANY`: the sets' GIN index answers it, instead of a scan of every session.
const USE_COUNT = `(SELECT count(*)::int FROM practice.sessions s
                    WHERE s.candidates @> ARRAY[t.id]) AS sessions`

function targetView(t: TargetWithUse): Schemas['PracticeTarget'] {
  return {
    id: t.id,
    poolId: t.pool_id,
    slug: t.slug,
    title: t.title,
    feedback: t.feedback,
    tags: t.tags,
    licence: t.licence,
    source: t.source,
    attribution: t.attribution,
    frontloading: t.frontloading,
    imageUrl: imageUrlOf(t.image_key),
    imageSha256: t.image_sha256,
    retired: t.retired_at !== null,
    sessions: t.sessions,
    createdAt: t.created_at.toISOString(),
  }
}

function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
  // Trimmed by hand: /^-+|-+$/ backtracks on a long run of dashes.
  let from = 0
  let to = slug.length
  while (from < to && slug[from] === '-') from++
  while (to > from && slug[to - 1] === '-') to--
  return slug.slice(from, to) || 'pool'
}

export function decodeImage(image: string): Buffer {
  const comma = image.startsWith('data:') ? image.indexOf(',') : -1
  const base64 = comma >= 0 ? image.slice(comma + 1) : image
  if (!/^[A-Za-z0-9+/=\s_-]+$/.test(base64)) {
    throw new AppError('invalid_image_data', 400, 'The image must be a data URL or base64.')
  }
  return Buffer.from(base64, 'base64')
}

function checkTags(vocabulary: Vocabulary, tags: string[] | undefined): void {
  const unknown = (tags ?? []).filter((t) => !vocabulary.has(t))
  if (unknown.length > 0) {
    throw new AppError(
      'unknown_tags',
      400,
      `These tags are not concepts of the vocabulary: ${unknown.join(', ')}`,
      { unknown },
    )
  }
}

function checkAttribution(
  licence: Schemas['PracticeLicence'] | undefined,
  attribution: string | null | undefined,
) {
  if (licence && needsAttribution(licence) && !attribution?.trim()) {
    throw new AppError('attribution_required', 400, `A ${licence} image needs its attribution.`)
  }
}

async function listPools(db: Pool): Promise<Schemas['PracticePool'][]> {
  const { rows } = await db.query<{
    id: string
    slug: string
    name: string
    targets: number
    active: number
  }>(
    `SELECT p.id, p.slug, p.name,
            count(t.id) FILTER (WHERE t.deleted_at IS NULL)::int AS targets,
            count(t.id) FILTER (WHERE t.deleted_at IS NULL AND t.retired_at IS NULL)::int AS active
     FROM practice.pools p LEFT JOIN practice.targets t ON t.pool_id = p.id
     GROUP BY p.id ORDER BY p.created_at, p.name`,
  )
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    targets: r.targets,
    activeTargets: r.active,
  }))
}

async function targetWithUse(db: Pool, id: string): Promise<TargetWithUse | null> {
  const { rows } = await db.query<TargetWithUse>(
    `SELECT t.*, ${USE_COUNT} FROM practice.targets t WHERE t.id = $1 AND t.deleted_at IS NULL`,
    [id],
  )
  return rows[0] ?? null
}

const duplicatePool = () =>
  new AppError('pool_exists', 409, 'A pool with this name already exists.')

export function adminHandlers(deps: AdminDeps): Handlers {
  const { db, storage, vocabulary } = deps
  return defineHandlers('practice', {
    listPracticePools: () => listPools(db),

    createPracticePool: async ({ body, reply }) => {
      const trimmed = body.name.trim()
      try {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO practice.pools (slug, name) VALUES ($1, $2) RETURNING id`,
          [`${slugOf(trimmed)}-${Date.now().toString(36)}`, trimmed],
        )
        const created = (await listPools(db)).find((p) => p.id === rows[0]?.id)
        return reply.code(201).send(created)
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw duplicatePool()
        throw err
      }
    },

    renamePracticePool: async ({ params: { poolId }, body: { name } }) => {
      try {
        const { rowCount } = await db.query('UPDATE practice.pools SET name = $2 WHERE id = $1', [
          poolId,
          name.trim(),
        ])
        if (!rowCount) throw notFound('Target pool not found')
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw duplicatePool()
        throw err
      }
      return (await listPools(db)).find((p) => p.id === poolId)
    },

    listPracticeTargets: async ({ query: { poolId } }) => {
      const { rows } = await db.query<TargetWithUse>(
        `SELECT t.*, ${USE_COUNT} FROM practice.targets t
         WHERE t.deleted_at IS NULL AND ($1::uuid IS NULL OR t.pool_id = $1)
         ORDER BY t.created_at DESC, t.title LIMIT 10000`,
        [poolId ?? null],
      )
      return rows.map(targetView)
    },

    createPracticeTargets: async ({ body, request }) => {
      if (!(await poolExists(db, body.poolId))) throw notFound('Target pool not found')
      await hashMissing(deps.database, storage, { poolId: body.poolId })
      const existing = await poolHashes(deps.database, body.poolId)
      const accepted: { index: number; target: NewTarget }[] = []
      const refused: Schemas['PracticeTargetsCreated']['refused'] = []
      const refuse = (
        index: number,
        fileName: string | undefined,
        { code, message, details }: Pick<Reason, 'message' | 'details'> & { code: string },
      ) =>
        refused.push({
          index,
          ...(fileName ? { fileName: fileName.slice(0, 200) } : {}),
          code,
          message,
          ...(details ? { details } : {}),
        })
      for (const [index, item] of body.targets.entries()) {
        try {
          checkTags(vocabulary, item.tags)
          checkAttribution(item.licence, item.attribution)
          const prepared = await prepareImage(decodeImage(item.image), {
            fit: true,
            limits: deps.limits,
          })
          const hash = await perceptualHashOf(prepared.bytes)
          const inPool = nearestDuplicate(hash, existing)
          const inUpload = nearestDuplicate(
            hash,
            accepted.map((a) => ({ hash: a.target.hash, position: a.index + 1 })),
          )
          if (inPool || inUpload) {
            refuse(
              index,
              item.fileName,
              inPool
                ? nearDuplicate(inPool.match, inPool.distance)
                : nearDuplicateInUpload(inUpload?.match.position ?? 0, inUpload?.distance ?? 0),
            )
            continue
          }
          accepted.push({
            index,
            target: {
              title: item.title.trim(),
              feedback: item.feedback.trim(),
              tags: item.tags,
              licence: item.licence,
              source: item.source.trim(),
              attribution: item.attribution?.trim() || null,
              frontloading: item.frontloading?.trim() || null,
              image: prepared.bytes,
              imageSha256: sha256Hex(prepared.bytes),
              hash,
            },
          })
        } catch (err) {
          if (!(err instanceof AppError)) throw err
          refuse(index, item.fileName, { code: err.code, message: err.message })
        }
      }
      // All accepted pictures with their rows, or none: no row without its stored picture.
      const outcomes = await addTargets(
        { db: deps.database, storage, log: request.log },
        body.poolId,
        accepted.map((a) => a.target),
      )
      const created: Schemas['PracticeTarget'][] = []
      for (const [i, outcome] of outcomes.entries()) {
        const { index } = accepted[i] ?? { index: -1 }
        if ('reason' in outcome) {
          refuse(index, body.targets[index]?.fileName, outcome.reason)
          continue
        }
        const row = await targetWithUse(db, outcome.targetId)
        if (row) created.push(targetView(row))
      }
      refused.sort((a, b) => a.index - b.index)
      request.log.info(
        { created: created.length, refused: refused.length },
        'practice targets added',
      )
      return { created, refused }
    },

    updatePracticeTarget: async ({ params: { targetId }, body: patch }) => {
      const current = await targetWithUse(db, targetId)
      if (!current) throw notFound('Target not found')
      checkTags(vocabulary, patch.tags)
      checkAttribution(
        patch.licence ?? current.licence,
        patch.attribution === undefined ? current.attribution : patch.attribution,
      )
      await db.query(
        `UPDATE practice.targets SET
           title = COALESCE($2, title), feedback = COALESCE($3, feedback),
           tags = COALESCE($4, tags), licence = COALESCE($5, licence), source = COALESCE($6, source),
           attribution = CASE WHEN $7::boolean THEN $8 ELSE attribution END,
           frontloading = CASE WHEN $9::boolean THEN $10 ELSE frontloading END,
           retired_at = CASE WHEN $11::boolean IS NULL THEN retired_at
                             WHEN $11 THEN COALESCE(retired_at, now()) ELSE NULL END
         WHERE id = $1`,
        [
          targetId,
          patch.title?.trim() ?? null,
          patch.feedback?.trim() ?? null,
          patch.tags ?? null,
          patch.licence ?? null,
          patch.source?.trim() ?? null,
          patch.attribution !== undefined,
          patch.attribution?.trim() || null,
          patch.frontloading !== undefined,
          patch.frontloading?.trim() || null,
          patch.retired ?? null,
        ],
      )
      const updated = await targetWithUse(db, targetId)
      if (!updated) throw notFound('Target not found')
      return targetView(updated)
    },

    deletePracticeTarget: async ({ params: { targetId }, request, reply }) => {
      const outcome = await withTransaction(db, async (client) => {
        const target = await targetById(client, targetId)
        if (!target || target.deleted_at) throw notFound('Target not found')
        const { rows } = await client.query<{ shown: number; held: number }>(
          `SELECT (SELECT count(*)::int FROM practice.sessions
                   WHERE candidates @> ARRAY[$1::uuid]) AS shown,
                  (SELECT count(*)::int FROM practice.sessions WHERE target_id = $1) AS held`,
          [targetId],
        )
        const use = rows[0] ?? { shown: 0, held: 0 }
        if (use.shown > 0) {
          throw new AppError(
            'target_in_use',
            409,
            'Sessions have used this target, so it stays for their history. Retire it instead.',
          )
        }
        // Only a session started before sets were committed (closed, never shown a set) can hold
        // it without showing it: hidden now, picture gone too, the same answer as a free one.
        if (use.held > 0) {
          await client.query('UPDATE practice.targets SET deleted_at = now() WHERE id = $1', [
            targetId,
          ])
          return { removeImage: null }
        }
        await client.query('DELETE FROM practice.targets WHERE id = $1', [targetId])
        return { removeImage: imageObjectKey(target.image_key) }
      })
      if (outcome.removeImage) {
        await storage
          .delete(outcome.removeImage)
          .catch((err: Error) => request.log.warn({ err: err.message }, 'target image not removed'))
      }
      return reply.code(204).send()
    },
  })
}
