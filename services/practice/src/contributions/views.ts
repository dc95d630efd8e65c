// Contributions as the contract says them: to their contributor, and to administrators.
import type { components } from '@crv/contracts'
import { tagAgreement } from './agreement.ts'
import type { ContributionRow } from './repository.ts'

type Schemas = components['schemas']

export const contributionImageUrlOf = (imageKey: string) =>
  `/api/practice/contribution-images/${imageKey}`

const iso = (at: string) => new Date(at).toISOString()
const isoOrNull = (at: string | null) => (at === null ? null : iso(at))

export function contributionView(row: ContributionRow): Schemas['PracticeContribution'] {
  return {
    id: row.id,
    title: row.title,
    feedback: row.feedback,
    tags: row.tags,
    ownWork: row.own_work,
    licence: row.licence,
    source: row.source,
    attribution: row.attribution,
    imageUrl: contributionImageUrlOf(row.image_key),
    status: row.status,
    rejectionReason: row.rejection_reason,
    createdAt: iso(row.created_at),
    decidedAt: isoOrNull(row.decided_at),
  }
}

/**
 * What administrators see. Before the second tags exist, nothing of the contributor's own
 * description (tags, feedback) is in it, for any administrator: whoever tags second tags blind.
 */
export function reviewView(
  row: ContributionRow,
  callerId: string,
  universe: number,
): Schemas['PracticeContributionReview'] {
  const tagged = row.second_tags !== null
  return {
    id: row.id,
    title: row.title,
    feedback: tagged ? row.feedback : null,
    ownWork: row.own_work,
    licence: row.licence,
    source: row.source,
    attribution: row.attribution,
    imageUrl: contributionImageUrlOf(row.image_key),
    createdAt: iso(row.created_at),
    status: row.status,
    yours: row.user_id === callerId,
    contributorTags: tagged ? row.tags : null,
    secondTags: row.second_tags,
    secondTaggedByYou: row.second_tagger === callerId,
    agreement: row.second_tags ? tagAgreement(row.tags, row.second_tags, universe) : null,
    agreedTags: row.agreed_tags,
    poolId: row.pool_id,
    targetId: row.target_id,
    rejectionReason: row.rejection_reason,
    decidedAt: isoOrNull(row.decided_at),
  }
}
