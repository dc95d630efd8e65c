// Contributions (issue [24] items 2 and 3). A signed-in user submits a picture: their own
// photograph, which they license under CC0 or CC BY, or one under a licence of the allowlist
// with where it comes from. It is stored as an upload is (re-encoded, no metadata) and refused
// when its perceptual hash is near a target's or a waiting contribution's. An administrator
// other than the contributor tags it a second time, seeing its picture and title only; then a
// moderator approves it into a pool, with the tags both chose and those the moderator confirms,
// or rejects it with a reason the contributor reads. The target it becomes is never drawn into
// its contributor's sets (drawable-targets.ts).
import { buffer } from 'node:stream/consumers'
import type { FastifyBaseLogger } from 'fastify'
import type { components } from '@crv/contracts'
import { AppError, notFound } from '@crv/kit'
import type { AuthUser } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { prepareImage } from '@crv/kit/images'
import type { ImageLimits } from '@crv/kit/images'
import type { ObjectStorage } from '@crv/kit/storage'
import { decodeImage } from '../pools/pools.ts'
import { hashMissing } from '../near-duplicates/backfill.ts'
import { nearestDuplicate, perceptualHashOf } from '../near-duplicates/perceptual-hash.ts'
import { sha256Hex } from '../sessions/sealing.ts'
import { imageObjectKey, newImageKey } from '../seed.ts'
import { addTargets } from '../target-import/add-targets.ts'
import { MAX_TAGS } from '../target-import/manifest.ts'
import { needsAttribution } from '../target-import/licences.ts'
import { forgetPendingImages, poolIdOf, recordPendingImages } from '../target-import/repository.ts'
import type { Vocabulary } from '../vocabulary.ts'
import { agreedTags, tagAgreement } from './agreement.ts'
import {
  contributionById,
  contributionByImageKey,
  contributionsOf,
  contributionsWith,
  countPendingOf,
  deleteContributionsOf,
  hashesToCompare,
  insertContribution,
  lockContributionsOf,
  markInPool,
  rejectIfPending,
  saveSecondTags,
} from './repository.ts'
import type { ContributionRow, ContributionStatus } from './repository.ts'

type Schemas = components['schemas']

export interface ContributionDeps {
  db: Database
  storage: ObjectStorage
  vocabulary: Vocabulary
  limits: ImageLimits
  log?: Pick<FastifyBaseLogger, 'warn'>
}

/** Contributions of one user waiting for moderation at a time. */
export const MAX_PENDING = 20

/** The licences a contributor grants on their own photograph. */
const OWN_WORK_LICENCES: readonly Schemas['PracticeLicence'][] = ['CC0-1.0', 'CC-BY-4.0']

const licenceNotAllowed = (message: string, licence: string) =>
  new AppError('licence_not_allowed', 400, message, { licence })

function checkLicence(c: Schemas['PracticeContributionNew']) {
  if (c.licence === 'own') {
    throw licenceNotAllowed(
      '"own" is the project\'s own work. For your own photograph, say it is your own work and license it under CC0 1.0 or CC BY 4.0.',
      c.licence,
    )
  }
  if (c.ownWork && !OWN_WORK_LICENCES.includes(c.licence)) {
    throw licenceNotAllowed(
      'Your own photograph is contributed under CC0 1.0 or CC BY 4.0.',
      c.licence,
    )
  }
  if (needsAttribution(c.licence) && !c.attribution?.trim()) {
    throw new AppError(
      'attribution_required',
      400,
      `A ${c.licence} picture needs its attribution (who to credit).`,
    )
  }
  if (!c.ownWork && !isWebAddress(c.source.trim())) {
    throw new AppError(
      'source_required',
      400,
      'Say where the picture comes from: the http(s) address of its page.',
      { field: 'source' },
    )
  }
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0
  } catch {
    return false
  }
}

function checkTags(vocabulary: Vocabulary, tags: readonly string[]) {
  const unknown = tags.filter((t) => !vocabulary.has(t))
  if (unknown.length > 0) {
    throw new AppError(
      'unknown_tags',
      400,
      `These tags are not concepts of the vocabulary: ${unknown.join(', ')}`,
      { tags: unknown },
    )
  }
}

const tooManyPending = () =>
  new AppError(
    'too_many_pending',
    409,
    `${MAX_PENDING} of your contributions are waiting for moderation: wait for some to be decided.`,
  )

// Which target or contribution a picture repeats is not said: a user must not learn, by
// uploading pictures, which are in a pool.
const nearDuplicate = () =>
  new AppError(
    'near_duplicate',
    409,
    'This picture is already among the targets, or waiting as a contribution.',
  )

export async function submitContribution(
  deps: ContributionDeps,
  user: AuthUser,
  submitted: Schemas['PracticeContributionNew'],
): Promise<ContributionRow> {
  checkLicence(submitted)
  checkTags(deps.vocabulary, submitted.tags)
  // Asked again under the lock below; here first, before the picture's work.
  if ((await countPendingOf(deps.db, user.id)) >= MAX_PENDING) throw tooManyPending()
  const prepared = await prepareImage(decodeImage(submitted.image), {
    fit: true,
    limits: deps.limits,
  })
  const hash = await perceptualHashOf(prepared.bytes)
  if (nearestDuplicate(hash, await hashesToCompare(deps.db))) throw nearDuplicate()

  // The picture is stored first, recorded as pending until its row commits (the sweeper of
  // unfinished imports removes it otherwise).
  const imageKey = newImageKey()
  await recordPendingImages(deps.db, [imageKey])
  try {
    await deps.storage.put(imageObjectKey(imageKey), prepared.bytes, {
      contentType: 'image/jpeg',
    })
    return await deps.db.transaction(async (tx) => {
      // One user's submissions one at a time: the count and the hashes hold until the commit.
      await lockContributionsOf(tx, user.id)
      if ((await countPendingOf(tx, user.id)) >= MAX_PENDING) throw tooManyPending()
      if (nearestDuplicate(hash, await hashesToCompare(tx))) throw nearDuplicate()
      const row = await insertContribution(tx, {
        userId: user.id,
        title: submitted.title.trim(),
        feedback: submitted.feedback.trim(),
        ownWork: submitted.ownWork,
        licence: submitted.licence as Exclude<Schemas['PracticeLicence'], 'own'>,
        source: submitted.source.trim(),
        attribution: submitted.attribution?.trim() || null,
        imageKey,
        imageSha256: sha256Hex(prepared.bytes),
        hash,
        tags: [...submitted.tags],
      })
      await forgetPendingImages(tx, [imageKey])
      return row
    })
  } catch (err) {
    await removePicture(deps, imageKey)
    throw err
  }
}

type StorageDeps = Pick<ContributionDeps, 'db' | 'storage' | 'log'>

async function removePicture(deps: StorageDeps, imageKey: string) {
  try {
    await deps.storage.delete(imageObjectKey(imageKey))
    await forgetPendingImages(deps.db, [imageKey])
  } catch (err) {
    deps.log?.warn({ err: (err as Error).message }, 'contribution picture not removed')
  }
}

export const contributionsOfUser = (deps: ContributionDeps, userId: string) =>
  contributionsOf(deps.db, userId, 1000)

export const moderationQueue = (deps: ContributionDeps, status: ContributionStatus) =>
  contributionsWith(deps.db, status, 500)

/** A contribution an administrator acts on: never their own. */
async function toModerate(deps: ContributionDeps, id: string, moderator: AuthUser) {
  const row = await contributionById(deps.db, id)
  if (!row) throw notFound('Contribution not found')
  if (row.user_id === moderator.id) {
    throw new AppError(
      'own_contribution',
      403,
      'This is your own contribution: another administrator tags and decides it.',
    )
  }
  if (row.status !== 'pending') throw decided()
  return row
}

const decided = () =>
  new AppError('contribution_decided', 409, 'This contribution was already approved or rejected.')

export async function tagSecond(
  deps: ContributionDeps,
  id: string,
  tagger: AuthUser,
  tags: readonly string[],
): Promise<ContributionRow> {
  const row = await toModerate(deps, id, tagger)
  if (row.second_tags) throw alreadyTagged()
  checkTags(deps.vocabulary, tags)
  const saved = await saveSecondTags(deps.db, id, tagger.id, [...tags])
  if (saved) return saved
  // Tagged or decided meanwhile: say which.
  const now = await contributionById(deps.db, id)
  throw now?.status === 'pending' ? alreadyTagged() : decided()
}

const alreadyTagged = () =>
  new AppError(
    'already_tagged',
    409,
    'This contribution already has its second tags; they are not tagged again once the first are visible.',
  )

export async function reject(
  deps: ContributionDeps,
  id: string,
  moderator: AuthUser,
  reason: string,
): Promise<ContributionRow> {
  await toModerate(deps, id, moderator)
  const rejected = await rejectIfPending(deps.db, id, moderator.id, reason.trim())
  if (!rejected) throw decided()
  return rejected
}

export async function approve(
  deps: ContributionDeps,
  id: string,
  moderator: AuthUser,
  approval: Schemas['PracticeContributionApproval'],
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<ContributionRow> {
  const row = await toModerate(deps, id, moderator)
  const secondTags = row.second_tags
  if (!secondTags) {
    throw new AppError(
      'second_tags_missing',
      409,
      'A second tagger tags this contribution before it can enter a pool.',
    )
  }
  const agreement = tagAgreement(row.tags, secondTags, deps.vocabulary.size)
  const agreed = agreedTags(agreement, approval.confirmedTags ?? [])
  if ('notDisputed' in agreed) {
    throw new AppError(
      'tag_not_disputed',
      400,
      `Only tags one tagger chose can be confirmed: ${agreed.notDisputed.join(', ')}`,
      { tags: agreed.notDisputed },
    )
  }
  if ('none' in agreed) {
    throw new AppError(
      'no_agreed_tags',
      400,
      'The taggers chose no tag in common: confirm at least one, or reject the contribution.',
    )
  }
  if (agreed.tags.length > MAX_TAGS) {
    throw new AppError(
      'too_many_tags',
      400,
      `A target holds at most ${MAX_TAGS} tags; the agreed set has ${agreed.tags.length}. Confirm fewer.`,
      { max: MAX_TAGS, tags: agreed.tags.length },
    )
  }
  const poolId = await poolIdOf(deps.db, approval.poolId)
  if (!poolId) throw notFound('Target pool not found')
  const stored = await deps.storage.get(imageObjectKey(row.image_key))
  if (!stored) throw new Error(`the picture of contribution ${row.id} is missing`)
  const image = await buffer(stored.body)
  // Every target of the pool is compared, including any stored before hashes existed.
  await hashMissing(deps.db, deps.storage, { poolId })
  const marked: { row: ContributionRow | null } = { row: null }
  const [outcome] = await addTargets(
    { db: deps.db, storage: deps.storage, log },
    poolId,
    [
      {
        title: row.title,
        feedback: row.feedback,
        tags: agreed.tags,
        licence: row.licence,
        source: row.source,
        attribution: row.attribution,
        frontloading: null,
        image,
        imageSha256: sha256Hex(image),
        hash: await perceptualHashOf(image),
        contributedBy: row.user_id,
        tagKappa: agreement.kappa,
      },
    ],
    async (tx, added) => {
      const targetId = added.values().next().value
      if (!targetId) return
      marked.row = await markInPool(tx, id, {
        moderatorId: moderator.id,
        poolId,
        targetId,
        agreedTags: agreed.tags,
        secondTags,
      })
      // Decided by someone else meanwhile: the target goes with this transaction.
      if (!marked.row) throw decided()
    },
  )
  if (outcome && 'reason' in outcome) {
    throw new AppError('near_duplicate', 409, outcome.reason.message, outcome.reason.details)
  }
  if (!marked.row) throw new Error(`contribution ${id} was added without being marked`)
  return marked.row
}

/** A contribution's picture, by its key; null when no contribution has it. */
export async function contributionPicture(deps: ContributionDeps, imageKey: string) {
  const row = await contributionByImageKey(deps.db, imageKey)
  return row ? deps.storage.get(imageObjectKey(row.image_key)) : null
}

/** Forgets a user's contributions (their account is going); the targets made of them stay. */
export async function forgetContributionsOf(deps: StorageDeps, userId: string) {
  const keys = await deps.db.transaction((tx) => deleteContributionsOf(tx, userId))
  for (const key of keys) await removePicture(deps, key)
}
