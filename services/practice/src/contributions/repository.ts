// Every statement about contributions. Plain objects back; who may see or change what is
// decided in contributions.ts.
import { sql } from 'drizzle-orm'
import type { Executor, HashedTarget } from '../near-duplicates/repository.ts'
import type { PerceptualHash } from '../near-duplicates/perceptual-hash.ts'
import type { Licence } from '../target-import/licences.ts'

export type ContributionStatus = 'pending' | 'in_pool' | 'rejected'

/** Timestamps as PostgreSQL writes them (Drizzle leaves them as text). */
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

// Every column but the hash: no answer needs it.
const COLUMNS = sql.raw(`id, user_id, title, feedback, own_work, licence, source, attribution,
  image_key, image_sha256, tags, second_tags, second_tagger, second_tagged_at, status,
  decided_by, decided_at, rejection_reason, agreed_tags, pool_id, target_id, created_at`)

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
export async function lockContributionsOf(db: Executor, userId: string): Promise<void> {
  await db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`practice-contributions:${userId}`}))`,
  )
}

export async function countPendingOf(db: Executor, userId: string): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM practice.contributions
    WHERE user_id = ${userId} AND status = 'pending'`)
  return result.rows[0]?.n ?? 0
}

export async function insertContribution(
  db: Executor,
  c: ContributionToInsert,
): Promise<ContributionRow> {
  const result = await db.execute<ContributionRow>(sql`
    INSERT INTO practice.contributions
      (user_id, title, feedback, own_work, licence, source, attribution, image_key, image_sha256,
       phash, phash_flat, tags)
    VALUES (${c.userId}, ${c.title}, ${c.feedback}, ${c.ownWork}, ${c.licence}, ${c.source},
            ${c.attribution}, ${c.imageKey}, ${c.imageSha256}, ${c.hash.bits}::bit(64),
            ${c.hash.flat}, ${sql.param(c.tags)}::text[])
    RETURNING ${COLUMNS}`)
  const row = result.rows[0]
  if (!row) throw new Error('contribution insert returned nothing')
  return row
}

/**
 * The hashes a new picture is compared with: every target of every pool (not deleted), and
 * every contribution still waiting. A contribution in a pool is there as its target; a rejected
 * one may come again, corrected.
 */
export async function hashesToCompare(db: Executor): Promise<HashedTarget[]> {
  const result = await db.execute<{ id: string; title: string; phash: string; flat: boolean }>(sql`
    SELECT id, title, phash::text AS phash, phash_flat AS flat FROM practice.targets
    WHERE deleted_at IS NULL AND phash IS NOT NULL
    UNION ALL
    SELECT id, title, phash::text, phash_flat FROM practice.contributions
    WHERE status = 'pending'`)
  return result.rows.map((r) => ({
    id: r.id,
    title: r.title,
    hash: { bits: r.phash, flat: r.flat },
  }))
}

export async function contributionById(
  db: Executor,
  id: string,
  forUpdate = false,
): Promise<ContributionRow | null> {
  const result = await db.execute<ContributionRow>(sql`
    SELECT ${COLUMNS} FROM practice.contributions WHERE id = ${id}::uuid
    ${forUpdate ? sql`FOR UPDATE` : sql``}`)
  return result.rows[0] ?? null
}

export async function contributionByImageKey(
  db: Executor,
  imageKey: string,
): Promise<ContributionRow | null> {
  const result = await db.execute<ContributionRow>(sql`
    SELECT ${COLUMNS} FROM practice.contributions WHERE image_key = ${imageKey}`)
  return result.rows[0] ?? null
}

/** A user's contributions, newest first. */
export async function contributionsOf(
  db: Executor,
  userId: string,
  limit: number,
): Promise<ContributionRow[]> {
  const result = await db.execute<ContributionRow>(sql`
    SELECT ${COLUMNS} FROM practice.contributions WHERE user_id = ${userId}
    ORDER BY created_at DESC, id LIMIT ${limit}`)
  return result.rows
}

/** Contributions of one status: the waiting ones oldest first (a queue), others newest first. */
export async function contributionsWith(
  db: Executor,
  status: ContributionStatus,
  limit: number,
): Promise<ContributionRow[]> {
  const order = status === 'pending' ? sql`created_at, id` : sql`decided_at DESC, id`
  const result = await db.execute<ContributionRow>(sql`
    SELECT ${COLUMNS} FROM practice.contributions WHERE status = ${status}
    ORDER BY ${order} LIMIT ${limit}`)
  return result.rows
}

/** Records the second tags of a waiting contribution that has none; null if it has, or is decided. */
export async function saveSecondTags(
  db: Executor,
  id: string,
  taggerId: string,
  tags: string[],
): Promise<ContributionRow | null> {
  const result = await db.execute<ContributionRow>(sql`
    UPDATE practice.contributions
    SET second_tags = ${sql.param(tags)}::text[], second_tagger = ${taggerId},
        second_tagged_at = now()
    WHERE id = ${id}::uuid AND status = 'pending' AND second_tags IS NULL
    RETURNING ${COLUMNS}`)
  return result.rows[0] ?? null
}

/** Rejects a waiting contribution; null if it was decided meanwhile. */
export async function rejectIfPending(
  db: Executor,
  id: string,
  moderatorId: string,
  reason: string,
): Promise<ContributionRow | null> {
  const result = await db.execute<ContributionRow>(sql`
    UPDATE practice.contributions
    SET status = 'rejected', rejection_reason = ${reason}, decided_by = ${moderatorId},
        decided_at = now()
    WHERE id = ${id}::uuid AND status = 'pending'
    RETURNING ${COLUMNS}`)
  return result.rows[0] ?? null
}

/**
 * Marks a waiting, second-tagged contribution as in the pool with its target; null if it was
 * decided meanwhile (or its second tags are not those the agreed set was made from).
 */
export async function markInPool(
  db: Executor,
  id: string,
  decision: {
    moderatorId: string
    poolId: string
    targetId: string
    agreedTags: string[]
    secondTags: string[]
  },
): Promise<ContributionRow | null> {
  const result = await db.execute<ContributionRow>(sql`
    UPDATE practice.contributions
    SET status = 'in_pool', decided_by = ${decision.moderatorId}, decided_at = now(),
        pool_id = ${decision.poolId}::uuid, target_id = ${decision.targetId}::uuid,
        agreed_tags = ${sql.param(decision.agreedTags)}::text[]
    WHERE id = ${id}::uuid AND status = 'pending'
      AND second_tags = ${sql.param(decision.secondTags)}::text[]
    RETURNING ${COLUMNS}`)
  return result.rows[0] ?? null
}

/**
 * Forgets a user's contributions (their account is going): the rows, and who contributed the
 * targets made from them. The targets stay (their licences were granted); the pictures' keys
 * come back for removal after the commit.
 */
export async function deleteContributionsOf(db: Executor, userId: string): Promise<string[]> {
  await db.execute(sql`
    UPDATE practice.targets SET contributed_by = NULL WHERE contributed_by = ${userId}`)
  const result = await db.execute<{ image_key: string }>(sql`
    DELETE FROM practice.contributions WHERE user_id = ${userId} RETURNING image_key`)
  return result.rows.map((r) => r.image_key)
}
