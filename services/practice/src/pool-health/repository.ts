// Every statement of a pool's health. Each reads one pool's active targets, or the sessions of
// its last 90 days and what its five most active viewers were shown: cheap on a pool of 5,000
// targets with thousands of sessions. Plain objects back.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { components } from '@crv/contracts'
import { rows } from '@crv/kit/db'
import { pools, targets } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

/** Targets sets are drawn from: neither retired nor deleted. */
const ACTIVE = sql`t.retired_at IS NULL AND t.deleted_at IS NULL`

/**
 * The pool's active targets, those without any of `classTags`, and those with two taggers
 * (contributions) with the mean of their Cohen's κ; null for no such pool.
 */
export async function poolSize(
  db: Queryable,
  poolId: string,
  classTags: readonly string[],
): Promise<{
  activeTargets: number
  unclassified: number
  secondTagged: number
  meanKappa: number | null
} | null> {
  const [row] = await db
    .select({
      activeTargets: sql<number>`count(${targets.id})::int`,
      unclassified: sql<number>`count(${targets.id})
        FILTER (WHERE NOT ${targets.tags} && ${sql.param(classTags)}::text[])::int`,
      secondTagged: sql<number>`count(${targets.tagKappa})::int`,
      meanKappa: sql<number | null>`avg(${targets.tagKappa})`,
    })
    .from(pools)
    .leftJoin(
      targets,
      and(eq(targets.poolId, pools.id), isNull(targets.retiredAt), isNull(targets.deletedAt)),
    )
    .where(eq(pools.id, poolId))
    .groupBy(pools.id)
  return row ?? null
}

type TagCountRow = { tag: string; targets: number }

/** How many active targets carry each of `tags` (tags no target carries are left out). */
export async function tagCounts(
  db: Queryable,
  poolId: string,
  tags: readonly string[],
): Promise<Map<string, number>> {
  const found = await rows<TagCountRow>(
    db,
    sql`
    SELECT tag, count(DISTINCT t.id)::int AS targets
    FROM practice.targets t CROSS JOIN LATERAL unnest(t.tags) AS tag
    WHERE t.pool_id = ${poolId}::uuid AND ${ACTIVE} AND tag = ANY(${sql.param(tags)}::text[])
    GROUP BY tag`,
  )
  return new Map(found.map((r) => [r.tag, r.targets]))
}

type CandidateCount = components['schemas']['PracticeCandidateCount']

export interface ActiveViewer {
  userId: string
  /** Their sessions in the pool over the window. */
  sessions: number
  /** The set size of their latest session in the pool (5 or 10: the column's CHECK). */
  candidateCount: CandidateCount
  /** Active targets of the pool ever shown to them. */
  shown: number
  /** Of those, the ones last shown `restDays` ago or more. */
  rested: number
  /** Active targets they contributed and were never shown: never drawn into their sets. */
  own: number
}

type ViewerRow = {
  user_id: string
  sessions: number
  candidate_count: CandidateCount
  shown: number
  rested: number
  own: number
}

/**
 * The `limit` viewers with the most sessions in the pool over the last `windowDays`, most first
 * (then the latest first), with what of the pool's active targets they were shown, and how
 * many they contributed themselves (a contributor never gets their own target).
 */
export async function mostActiveViewers(
  db: Queryable,
  poolId: string,
  options: { windowDays: number; restDays: number; limit: number },
): Promise<ActiveViewer[]> {
  // Only the five are looked at further: their latest set size by the per-viewer index, and
  // what they were shown by the key of practice.seen.
  const found = await rows<ViewerRow>(
    db,
    sql`
    WITH viewers AS (
      SELECT user_id, count(*)::int AS sessions, max(started_at) AS latest
      FROM practice.sessions
      WHERE pool_id = ${poolId}::uuid
        AND started_at > now() - make_interval(days => ${options.windowDays})
      GROUP BY user_id
      ORDER BY sessions DESC, latest DESC, user_id
      LIMIT ${options.limit}
    )
    SELECT v.user_id, v.sessions, l.candidate_count, h.shown, h.rested, o.own
    FROM viewers v
    CROSS JOIN LATERAL (
      SELECT s.candidate_count FROM practice.sessions s
      WHERE s.user_id = v.user_id AND s.pool_id = ${poolId}::uuid
      ORDER BY s.started_at DESC LIMIT 1
    ) l
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS shown,
             count(*) FILTER (
               WHERE s.last_shown_at <= now() - make_interval(days => ${options.restDays})
             )::int AS rested
      FROM practice.seen s JOIN practice.targets t ON t.id = s.target_id
      WHERE s.user_id = v.user_id AND t.pool_id = ${poolId}::uuid AND ${ACTIVE}
    ) h
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS own FROM practice.targets t
      WHERE t.contributed_by = v.user_id AND t.pool_id = ${poolId}::uuid AND ${ACTIVE}
        AND NOT EXISTS (SELECT 1 FROM practice.seen s
                        WHERE s.user_id = v.user_id AND s.target_id = t.id)
    ) o
    ORDER BY v.sessions DESC, v.latest DESC, v.user_id`,
  )
  return found.map((r) => ({
    userId: r.user_id,
    sessions: r.sessions,
    candidateCount: r.candidate_count,
    shown: r.shown,
    rested: r.rested,
    own: r.own,
  }))
}
