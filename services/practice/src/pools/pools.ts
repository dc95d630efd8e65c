// Target pools for administrators. No answer depends on which candidate of a set is a session's
// target: a set is drawn whole at the start, a target's `sessions` counts the sets it is in, a
// target in any set cannot be deleted (409, the same for every candidate), retiring one only
// keeps it out of new sets, and every set stays servable until its session is gone.
import type { FastifyBaseLogger } from 'fastify'
import type { components } from '@crv/contracts'
import { AppError, notFound } from '@crv/kit'
import { isPostgresError } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import { prepareImage } from '@crv/kit/images'
import type { ObjectStorage } from '@crv/kit/storage'
import { hashMissing } from '../near-duplicates/backfill.ts'
import { nearestDuplicate, perceptualHashOf } from '../near-duplicates/perceptual-hash.ts'
import { poolHashes } from '../near-duplicates/repository.ts'
import { imageObjectKey } from '../seed.ts'
import { sha256Hex } from '../sessions/sealing.ts'
import { addTargets } from '../target-import/add-targets.ts'
import type { NewTarget } from '../target-import/add-targets.ts'
import { needsAttribution } from '../target-import/licences.ts'
import { nearDuplicate, nearDuplicateInUpload } from '../target-import/reasons.ts'
import type { Reason } from '../target-import/reasons.ts'
import type { Vocabulary } from '../vocabulary.ts'
import {
  deleteTarget,
  insertPool,
  markTargetDeleted,
  poolExists,
  poolsWithCounts,
  renamePool,
  targetById,
  targetByImageKey,
  targetUse,
  targetWithUse,
  targetsWithUse,
  updateTarget,
} from './repository.ts'
import { poolView, targetView } from './views.ts'

type Schemas = components['schemas']

export interface PoolsDeps {
  db: Database
  storage: ObjectStorage
  vocabulary: Vocabulary
  limits: { maxBytes: number; maxPixels: number }
}

type Logged = PoolsDeps & { log: Pick<FastifyBaseLogger, 'info' | 'warn'> }

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

const duplicatePool = () =>
  new AppError('pool_exists', 409, 'A pool with this name already exists.')

export async function listPools(deps: PoolsDeps): Promise<Schemas['PracticePool'][]> {
  return (await poolsWithCounts(deps.db)).map(poolView)
}

export async function createPool(
  deps: PoolsDeps,
  name: string,
): Promise<Schemas['PracticePool'] | undefined> {
  const trimmed = name.trim()
  try {
    const id = await insertPool(deps.db, {
      slug: `${slugOf(trimmed)}-${Date.now().toString(36)}`,
      name: trimmed,
    })
    return (await listPools(deps)).find((p) => p.id === id)
  } catch (err) {
    if (isPostgresError(err, '23505')) throw duplicatePool()
    throw err
  }
}

export async function renameTargetPool(
  deps: PoolsDeps,
  poolId: string,
  name: string,
): Promise<Schemas['PracticePool'] | undefined> {
  try {
    if (!(await renamePool(deps.db, poolId, name.trim()))) throw notFound('Target pool not found')
  } catch (err) {
    if (isPostgresError(err, '23505')) throw duplicatePool()
    throw err
  }
  return (await listPools(deps)).find((p) => p.id === poolId)
}

export async function listTargets(
  deps: PoolsDeps,
  poolId: string | undefined,
): Promise<Schemas['PracticeTarget'][]> {
  return (await targetsWithUse(deps.db, poolId)).map(targetView)
}

/** Pictures uploaded by an administrator: each checked, refused with its reason, or added. */
export async function createTargets(
  deps: Logged,
  body: Schemas['PracticeTargetsCreate'],
): Promise<Schemas['PracticeTargetsCreated']> {
  if (!(await poolExists(deps.db, body.poolId))) throw notFound('Target pool not found')
  await hashMissing(deps.db, deps.storage, { poolId: body.poolId })
  const existing = await poolHashes(deps.db, body.poolId)
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
      checkTags(deps.vocabulary, item.tags)
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
    { db: deps.db, storage: deps.storage, log: deps.log },
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
    const row = await targetWithUse(deps.db, outcome.targetId)
    if (row) created.push(targetView(row))
  }
  refused.sort((a, b) => a.index - b.index)
  return { created, refused }
}

export async function updateTargetOf(
  deps: PoolsDeps,
  targetId: string,
  patch: Schemas['PracticeTargetUpdate'],
): Promise<Schemas['PracticeTarget']> {
  const current = await targetWithUse(deps.db, targetId)
  if (!current) throw notFound('Target not found')
  checkTags(deps.vocabulary, patch.tags)
  checkAttribution(
    patch.licence ?? current.licence,
    patch.attribution === undefined ? current.attribution : patch.attribution,
  )
  await updateTarget(deps.db, targetId, {
    title: patch.title?.trim(),
    feedback: patch.feedback?.trim(),
    tags: patch.tags,
    licence: patch.licence,
    source: patch.source?.trim(),
    attribution: patch.attribution === undefined ? undefined : patch.attribution?.trim() || null,
    frontloading: patch.frontloading === undefined ? undefined : patch.frontloading?.trim() || null,
    retired: patch.retired,
  })
  const updated = await targetWithUse(deps.db, targetId)
  if (!updated) throw notFound('Target not found')
  return targetView(updated)
}

/** Deletes a target no set has shown (its picture too); one that a set showed stays. */
export async function deleteTargetOf(deps: Logged, targetId: string): Promise<void> {
  const outcome = await deps.db.transaction(async (client) => {
    const target = await targetById(client, targetId)
    if (!target || target.deleted_at) throw notFound('Target not found')
    const use = await targetUse(client, targetId)
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
      await markTargetDeleted(client, targetId)
      return { removeImage: null }
    }
    await deleteTarget(client, targetId)
    return { removeImage: imageObjectKey(target.image_key) }
  })
  if (outcome.removeImage) {
    await deps.storage
      .delete(outcome.removeImage)
      .catch((err: Error) => deps.log.warn({ err: err.message }, 'target image not removed'))
  }
}

/** A target's picture, unless the target is deleted (then gone for everyone). */
export async function targetPicture(deps: Pick<PoolsDeps, 'db' | 'storage'>, key: string) {
  const target = await targetByImageKey(deps.db, key)
  return target && !target.deleted_at ? deps.storage.get(imageObjectKey(target.image_key)) : null
}
