// Every statement about contributions. Plain objects back; who may see or change what is
// decided in contributions.ts.
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import { contributions, targets } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
import type { HashedTarget } from '../near-duplicates/repository.ts'
import type { PerceptualHash } from '../near-duplicates/perceptual-hash.ts'
import type { Licence } from '../target-import/licences.ts'

export type ContributionStatus = 'pending' | 'in_pool' | 'rejected'

/** Timestamps as PostgreSQL writes them (the schema reads them as text). */
export type ContributionRow = {
  id: string
  user_id: string
  title: string
  feedback: string
  own_work: boolean
  licence: Exclude<Licence, 'own'>
  source: string
  attribution: string | null
  image_key: string
  image_sha256: string
  tags: string[]
  second_tags: string[] | null
  second_tagger: string | null
  second_tagged_at: string | null
  status: ContributionStatus
  decided_by: string | null
  decided_at: string | null
  rejection_reason: string | null
  agreed_tags: string[] | null
  pool_id: string | null
  target_id: string | null
  created_at: string
}

// Every column but the hash, under its SQL name: no answer needs the hash.
const COLUMNS = {
  id: contributions.id,
  user_id: contributions.userId,
  title: contributions.title,
  feedback: contributions.feedback,
  own_work: contributions.ownWork,
  licence: contributions.licence,
  source: contributions.source,
  attribution: contributions.attribution,
  image_key: contributions.imageKey,
  image_sha256: contributions.imageSha256,
  tags: contributions.tags,
  second_tags: contributions.secondTags,
  second_tagger: contributions.secondTagger,
  second_tagged_at: contributions.secondTaggedAt,
  status: contributions.status,
  decided_by: contributions.decidedBy,
  decided_at: contributions.decidedAt,
  rejection_reason: contributions.rejectionReason,
  agreed_tags: contributions.agreedTags,
  pool_id: contributions.poolId,
  target_id: contributions.targetId,
  created_at: contributions.createdAt,
}

export interface ContributionToInsert {
  userId: string
  title: string
  feedback: string
  ownWork: boolean
  licence: Exclude<Licence, 'own'>
  source: string
  attribution: string | null
  imageKey: string
  imageSha256: string
  hash: PerceptualHash
  tags: string[]
}

/** Holds one user's contributions for the rest of the transaction (their count, their hashes). */
export async function lockContributionsOf(db: Queryable, userId: string): Promise<void> {
  await rows(db, sql`SELECT pg_advisory_xact_lock(hashtext(${`practice-contributions:${userId}`}))`)
}

export async function countPendingOf(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(contributions)
    .where(and(eq(contributions.userId, userId), eq(contributions.status, 'pending')))
  return row?.n ?? 0
}

export async function insertContribution(
  db: Queryable,
  c: ContributionToInsert,
): Promise<ContributionRow> {
  const [row] = await db
    .insert(contributions)
    .values({
      userId: c.userId,
      title: c.title,
      feedback: c.feedback,
      ownWork: c.ownWork,
      licence: c.licence,
      source: c.source,
      attribution: c.attribution,
      imageKey: c.imageKey,
      imageSha256: c.imageSha256,
      phash: c.hash.bits,
      phashFlat: c.hash.flat,
      tags: c.tags,
    })
    .returning(COLUMNS)
  if (!row) throw new Error('contribution insert returned nothing')
  return row
}

/**
 * The hashes a new picture is compared with: every target of every pool (not deleted), and
 * every contribution still waiting. A contribution in a pool is there as its target; a rejected
 * one may come again, corrected.
 */
export async function hashesToCompare(db: Queryable): Promise<HashedTarget[]> {
  const found = await rows<{ id: string; title: string; phash: string; flat: boolean }>(
    db,
    sql`SELECT id, title, phash::text AS phash, phash_flat AS flat FROM ${targets}
        WHERE deleted_at IS NULL AND phash IS NOT NULL
        UNION ALL
        SELECT id, title, phash::text, phash_flat FROM ${contributions}
        WHERE status = 'pending'`,
  )
  return found.map((r) => ({
    id: r.id,
    title: r.title,
    hash: { bits: r.phash, flat: r.flat },
  }))
}

export async function contributionById(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<ContributionRow | null> {
  const query = db.select(COLUMNS).from(contributions).where(eq(contributions.id, id))
  const [row] = forUpdate ? await query.for('update') : await query
  return row ?? null
}

export async function contributionByImageKey(
  db: Queryable,
  imageKey: string,
): Promise<ContributionRow | null> {
  const [row] = await db
    .select(COLUMNS)
    .from(contributions)
    .where(eq(contributions.imageKey, imageKey))
  return row ?? null
}

/** A user's contributions, newest first. */
export async function contributionsOf(
  db: Queryable,
  userId: string,
  limit: number,
): Promise<ContributionRow[]> {
  return db
    .select(COLUMNS)
    .from(contributions)
    .where(eq(contributions.userId, userId))
    .orderBy(desc(contributions.createdAt), contributions.id)
    .limit(limit)
}

/** Contributions of one status: the waiting ones oldest first (a queue), others newest first. */
export async function contributionsWith(
  db: Queryable,
  status: ContributionStatus,
  limit: number,
): Promise<ContributionRow[]> {
  const order =
    status === 'pending'
      ? [contributions.createdAt, contributions.id]
      : [desc(contributions.decidedAt), contributions.id]
  return db
    .select(COLUMNS)
    .from(contributions)
    .where(eq(contributions.status, status))
    .orderBy(...order)
    .limit(limit)
}

/** Records the second tags of a waiting contribution that has none; null if it has, or is decided. */
export async function saveSecondTags(
  db: Queryable,
  id: string,
  taggerId: string,
  tags: string[],
): Promise<ContributionRow | null> {
  const [row] = await db
    .update(contributions)
    .set({ secondTags: tags, secondTagger: taggerId, secondTaggedAt: sql`now()` })
    .where(
      and(
        eq(contributions.id, id),
        eq(contributions.status, 'pending'),
        isNull(contributions.secondTags),
      ),
    )
    .returning(COLUMNS)
  return row ?? null
}

/** Rejects a waiting contribution; null if it was decided meanwhile. */
export async function rejectIfPending(
  db: Queryable,
  id: string,
  moderatorId: string,
  reason: string,
): Promise<ContributionRow | null> {
  const [row] = await db
    .update(contributions)
    .set({
      status: 'rejected',
      rejectionReason: reason,
      decidedBy: moderatorId,
      decidedAt: sql`now()`,
    })
    .where(and(eq(contributions.id, id), eq(contributions.status, 'pending')))
    .returning(COLUMNS)
  return row ?? null
}

/**
 * Marks a waiting, second-tagged contribution as in the pool with its target; null if it was
 * decided meanwhile (or its second tags are not those the agreed set was made from).
 */
export async function markInPool(
  db: Queryable,
  id: string,
  decision: {
    moderatorId: string
    poolId: string
    targetId: string
    agreedTags: string[]
    secondTags: string[]
  },
): Promise<ContributionRow | null> {
  const [row] = await db
    .update(contributions)
    .set({
      status: 'in_pool',
      decidedBy: decision.moderatorId,
      decidedAt: sql`now()`,
      poolId: decision.poolId,
      targetId: decision.targetId,
      agreedTags: decision.agreedTags,
    })
    .where(
      and(
        eq(contributions.id, id),
        eq(contributions.status, 'pending'),
        eq(contributions.secondTags, decision.secondTags),
      ),
    )
    .returning(COLUMNS)
  return row ?? null
}

/**
 * Forgets a user's contributions (their account is going): the rows, and who contributed the
 * targets made from them. The targets stay (their licences were granted); the pictures' keys
 * come back for removal after the commit.
 */
export async function deleteContributionsOf(db: Queryable, userId: string): Promise<string[]> {
  await db.update(targets).set({ contributedBy: null }).where(eq(targets.contributedBy, userId))
  const deleted = await db
    .delete(contributions)
    .where(eq(contributions.userId, userId))
    .returning({ imageKey: contributions.imageKey })
  return deleted.map((r) => r.imageKey)
}
