// Every statement about sessions, series and showings. Rows come back as plain objects; no
// function here decides who may see what (the domain in sessions.ts does).
import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { rows, withDates } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'
import type { TargetRow } from '../pools/repository.ts'

export type { TargetRow }

export interface SessionRow {
  id: string
  user_id: string
  pool_id: string
  target_id: string
  trn: string
  nonce: string
  commitment: string
  candidate_count: number
  frontloading: string | null
  started_at: Date
  lst_hours: number | null
  latitude: number | null
  longitude: number | null
  write_up: Record<string, unknown>
  revision: number
  updated_at: Date
  locked_at: Date | null
  write_up_sha256: string | null
  candidates: string[] | null
  judged_at: Date | null
  ranking: string[] | null
  rank: number | null
  score: Record<string, unknown> | null
  /** Null only for sessions started before sets were committed at the start. */
  candidate_commitment: string | null
  abandoned_at: Date | null
  lock_lst_hours: number | null
  analytic_rank: number | null
  chance_figure_of_merit: number | null
  series_id: string | null
  familiarity: 'unseen' | 'rested' | 'recent'
  /** The latest earlier showing of any of the set's pictures to this viewer. */
  last_shown_at: Date | null
}

export interface SeriesRow {
  id: string
  user_id: string
  declared_at: Date
  sessions: number
  candidate_count: number
  judging: 'self' | 'analytic'
  /** Sessions started in the series, and of those the ones judged or abandoned. */
  started: number
  closed: number
}

/** The database or one of its transactions. */
export type Queryable = Executor

const SESSION_DATES = [
  'started_at',
  'updated_at',
  'locked_at',
  'judged_at',
  'abandoned_at',
  'last_shown_at',
] as const
const sessionRow = <T extends SessionRow>(row: T): T => withDates(row, SESSION_DATES)
const seriesRow = (row: SeriesRow): SeriesRow => withDates(row, ['declared_at'])

/** The version of a pool's targets (migration 0007) a list read with it belongs to. */
export async function targetsVersion(db: Queryable, poolId: string): Promise<string> {
  const [row] = await rows<{ version: string }>(
    db,
    sql`SELECT targets_version::text AS version FROM practice.pools WHERE id = ${poolId}`,
  )
  return row?.version ?? '0'
}

/** An instant as the draw counts it: whole milliseconds since the epoch, as text. */
const MS = (column: string) => sql.raw(`(extract(epoch FROM ${column}) * 1000)::bigint::text`)

/** A pool's active target as a draw needs it. */
export interface PoolTarget {
  id: string
  frontloading: string | null
  /** Who contributed it (never drawn into their sets), or null. */
  contributedBy: string | null
}

/**
 * Active targets of a pool (not retired, not deleted) as a draw needs them, with the version of
 * the pool's targets they were read at (one statement: one snapshot). Sent as one row of lists: rows one
 * by one cost the embedded database several times more.
 */
export async function activeTargetsOf(
  db: Queryable,
  poolId: string,
): Promise<{ version: string; targets: PoolTarget[] }> {
  const [row] = await rows<{
    version: string
    ids: string | null
    hints: (string | null)[] | null
    contributors: (string | null)[] | null
  }>(
    db,
    sql`SELECT (SELECT targets_version::text FROM practice.pools WHERE id = ${poolId}) AS version,
               string_agg(t.id::text, ',' ORDER BY t.id) AS ids,
               array_agg(t.frontloading ORDER BY t.id) AS hints,
               array_agg(t.contributed_by ORDER BY t.id) AS contributors
        FROM practice.targets t
        WHERE t.pool_id = ${poolId} AND t.retired_at IS NULL AND t.deleted_at IS NULL`,
  )
  const ids = row?.ids ? row.ids.split(',') : []
  return {
    version: row?.version ?? '0',
    targets: ids.map((id, i) => ({
      id,
      frontloading: row?.hints?.[i] ?? null,
      contributedBy: row?.contributors?.[i] ?? null,
    })),
  }
}

/**
 * The versions a draw's kept lists are checked against, in one statement: the targets' version,
 * and the viewer's showings' (their latest showing: showings only ever move forward, to the
 * moment of a lock, and are deleted only all at once, with the account's data).
 */
export async function drawVersionsOf(
  db: Queryable,
  poolId: string,
  userId: string,
): Promise<{ targets: string; showings: string | null }> {
  const [row] = await rows<{ targets: string; showings: string | null }>(
    db,
    sql`SELECT (SELECT targets_version::text FROM practice.pools WHERE id = ${poolId}) AS targets,
               (SELECT ${MS('max(last_shown_at)')} FROM practice.seen
                WHERE user_id = ${userId}) AS showings`,
  )
  return row ?? { targets: '0', showings: null }
}

/**
 * When each picture was last shown to the viewer (ms since the epoch, by target id), with the
 * version of those showings (see drawVersionsOf), in one statement.
 */
export async function lastShowingsOf(
  db: Queryable,
  userId: string,
): Promise<{ version: string | null; shown: Map<string, number> }> {
  const [row] = await rows<{ version: string | null; ids: string | null; at: string | null }>(
    db,
    sql`SELECT ${MS('max(last_shown_at)')} AS version,
               string_agg(target_id::text, ',') AS ids,
               string_agg(${MS('last_shown_at')}, ',') AS at
        FROM practice.seen WHERE user_id = ${userId}`,
  )
  const ids = row?.ids ? row.ids.split(',') : []
  const at = (row?.at ?? '').split(',')
  return {
    version: row?.version ?? null,
    shown: new Map(ids.map((id, i) => [id, Number(at[i])])),
  }
}

/** Still open or unjudged and started more than `hours` ago. */
const overdue = (hours: number): SQL => sql`judged_at IS NULL AND abandoned_at IS NULL
  AND started_at < now() - make_interval(secs => ${hours}::double precision * 3600)`

/**
 * Closes the viewer's sessions past the limit as abandoned, then answers the one still open or
 * locked and unjudged, if any (one round trip: a start asks this first).
 */
export async function closeOverdueAndFindOpen(
  db: Queryable,
  userId: string,
  hours: number,
): Promise<{ id: string } | null> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`WITH closed AS (
          UPDATE practice.sessions SET abandoned_at = now()
          WHERE user_id = ${userId} AND ${overdue(hours)}
          RETURNING id)
        SELECT id FROM practice.sessions
        WHERE user_id = ${userId} AND judged_at IS NULL AND abandoned_at IS NULL
          AND id NOT IN (SELECT id FROM closed)`,
  )
  return row ?? null
}

/** Closes one session as abandoned if it is past the limit; true if it is (now) abandoned. */
export async function closeIfOverdue(db: Queryable, row: SessionRow, hours: number) {
  if (row.abandoned_at) return true
  if (row.judged_at) return false
  // Most calls are well within the limit: no statement for them.
  if (row.started_at.getTime() > Date.now() - hours * 3600_000 + 60_000) return false
  const closed = await rows<{ id: string }>(
    db,
    sql`UPDATE practice.sessions SET abandoned_at = now()
        WHERE id = ${row.id} AND ${overdue(hours)} RETURNING id`,
  )
  return closed.length > 0
}

/** The viewer's session that is open or locked and unjudged, if any. */
export async function openSessionOf(db: Queryable, userId: string): Promise<SessionRow | null> {
  const [row] = await rows<SessionRow>(
    db,
    sql`SELECT * FROM practice.sessions
        WHERE user_id = ${userId} AND judged_at IS NULL AND abandoned_at IS NULL`,
  )
  return row ? sessionRow(row) : null
}

/**
 * Closes as abandoned the sessions started more than `hours` ago and still open or unjudged:
 * of one viewer, or of everyone. Returns how many were closed.
 */
export async function closeAbandoned(
  db: Queryable,
  hours: number,
  userId: string | null,
): Promise<number> {
  const result = await db.execute(
    sql`UPDATE practice.sessions SET abandoned_at = now()
        WHERE ${overdue(hours)} AND (${userId}::text IS NULL OR user_id = ${userId})`,
  )
  return result.rowCount ?? 0
}

const SERIES_WITH_COUNTS = sql.raw(`SELECT r.*,
    (SELECT count(*)::int FROM practice.sessions s WHERE s.series_id = r.id) AS started,
    (SELECT count(*)::int FROM practice.sessions s
     WHERE s.series_id = r.id AND (s.judged_at IS NOT NULL OR s.abandoned_at IS NOT NULL)) AS closed
  FROM practice.series r`)

export async function seriesOf(db: Queryable, userId: string): Promise<SeriesRow[]> {
  const found = await rows<SeriesRow>(
    db,
    sql`${SERIES_WITH_COUNTS} WHERE r.user_id = ${userId}
        ORDER BY r.declared_at DESC, r.id LIMIT 1000`,
  )
  return found.map(seriesRow)
}

/** The viewer's series that still takes sessions (fewer started than declared), if any. */
export async function seriesTakingSessions(
  db: Queryable,
  userId: string,
): Promise<SeriesRow | null> {
  const [row] = await rows<SeriesRow>(
    db,
    sql`SELECT * FROM (${SERIES_WITH_COUNTS} WHERE r.user_id = ${userId}) x
        WHERE x.started < x.sessions ORDER BY x.declared_at LIMIT 1`,
  )
  return row ? seriesRow(row) : null
}

export async function insertSeries(
  db: Queryable,
  userId: string,
  declared: { sessions: number; candidates: number; judging: 'self' | 'analytic' },
): Promise<SeriesRow> {
  const [row] = await rows<SeriesRow>(
    db,
    sql`INSERT INTO practice.series (user_id, sessions, candidate_count, judging)
        VALUES (${userId}, ${declared.sessions}, ${declared.candidates}, ${declared.judging})
        RETURNING *, 0 AS started, 0 AS closed`,
  )
  return seriesRow(row as SeriesRow)
}

export async function sessionOf(
  db: Queryable,
  id: string,
  userId: string,
  forUpdate = false,
): Promise<SessionRow | null> {
  const [row] = await rows<SessionRow>(
    db,
    sql`SELECT * FROM practice.sessions WHERE id = ${id} AND user_id = ${userId}${sql.raw(
      forUpdate ? ' FOR UPDATE' : '',
    )}`,
  )
  return row ? sessionRow(row) : null
}

// The writes below are single conditional statements, not read-lock-write transactions: on the
// embedded database a transaction holds every service's queries until it ends, and these need
// none. Each answers null when the session is not (or no longer) in the state it needs; the
// domain reads the session again to say why.
const stillOpen = (hours: number): SQL => sql`judged_at IS NULL AND abandoned_at IS NULL
  AND started_at >= now() - make_interval(secs => ${hours}::double precision * 3600)`

/** Saves the write-up of an unlocked session (of this revision, when one is given). */
export async function saveWriteUpIfOpen(
  db: Queryable,
  session: { id: string; userId: string; abandonAfterHours: number },
  writeUp: unknown,
  revision: number | undefined,
): Promise<{ revision: number; updated_at: Date } | null> {
  const [row] = await rows<{ revision: number; updated_at: Date }>(
    db,
    sql`UPDATE practice.sessions
        SET write_up = ${JSON.stringify(writeUp)}, revision = revision + 1, updated_at = now()
        WHERE id = ${session.id} AND user_id = ${session.userId} AND locked_at IS NULL
          AND ${stillOpen(session.abandonAfterHours)}
          AND (${revision ?? null}::int IS NULL OR revision = ${revision ?? null})
        RETURNING revision, updated_at`,
  )
  return row ? withDates(row, ['updated_at']) : null
}

/** What a lock did to the viewer's showings' version (see drawVersionsOf): before, and now. */
export interface LockedShowings {
  shown_version: string
  shown_version_before: string | null
}

/** Locks a session whose write-up is still the revision that was hashed and judged. */
export async function lockIfUnchanged(
  db: Queryable,
  session: { id: string; revision: number; abandonAfterHours: number },
  lock: {
    writeUpSha256: string
    analyticRank: number
    chanceFigureOfMerit: number
    lstHours: number | null
  },
): Promise<(SessionRow & LockedShowings) | null> {
  // The set is shown now: each picture's last showing to this viewer is this lock.
  const [row] = await rows<SessionRow & LockedShowings>(
    db,
    sql`WITH locked AS (
          UPDATE practice.sessions SET locked_at = now(), write_up_sha256 = ${lock.writeUpSha256},
            analytic_rank = ${lock.analyticRank},
            chance_figure_of_merit = ${lock.chanceFigureOfMerit},
            lock_lst_hours = ${lock.lstHours}
          WHERE id = ${session.id} AND revision = ${session.revision} AND locked_at IS NULL
            AND ${stillOpen(session.abandonAfterHours)}
          RETURNING *),
        shown AS (
          INSERT INTO practice.seen (user_id, target_id, last_shown_at)
          SELECT l.user_id, c.id, l.locked_at FROM locked l, unnest(l.candidates) AS c (id)
          ON CONFLICT (user_id, target_id) DO UPDATE SET last_shown_at = EXCLUDED.last_shown_at)
        SELECT l.*, ${MS('l.locked_at')} AS shown_version,
               (SELECT ${MS('max(s.last_shown_at)')} FROM practice.seen s
                WHERE s.user_id = l.user_id) AS shown_version_before
        FROM locked l`,
  )
  return row ? sessionRow(row) : null
}

/** Records the viewer's ranking and score on a locked, unjudged session. */
export async function judgeIfLocked(
  db: Queryable,
  session: { id: string; abandonAfterHours: number },
  judgement: { ranking: string[]; rank: number; score: unknown },
): Promise<SessionRow | null> {
  const [row] = await rows<SessionRow>(
    db,
    sql`UPDATE practice.sessions
        SET judged_at = now(), ranking = ${sql.param(judgement.ranking)}::uuid[],
            rank = ${judgement.rank}, score = ${JSON.stringify(judgement.score)}
        WHERE id = ${session.id} AND locked_at IS NOT NULL AND candidates IS NOT NULL
          AND ${stillOpen(session.abandonAfterHours)}
        RETURNING *`,
  )
  return row ? sessionRow(row) : null
}

/** The newest 1,000 sessions of the user (the history lists). */
export async function sessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  const found = await rows<SessionRow>(
    db,
    sql`SELECT * FROM practice.sessions WHERE user_id = ${userId}
        ORDER BY started_at DESC, id LIMIT 1000`,
  )
  return found.map(sessionRow)
}

/** Every session of the user, oldest first (their export). */
export async function allSessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  const found = await rows<SessionRow>(
    db,
    sql`SELECT * FROM practice.sessions WHERE user_id = ${userId} ORDER BY started_at, id`,
  )
  return found.map(sessionRow)
}

/** Deletes every session of the user (their account is going). */
export async function deleteSessionsOf(db: Queryable, userId: string): Promise<void> {
  await db.execute(sql`DELETE FROM practice.seen WHERE user_id = ${userId}`)
  await db.execute(sql`DELETE FROM practice.sessions WHERE user_id = ${userId}`)
}

export async function countSessionsOf(
  db: Queryable,
  userId: string,
  familiarity?: SessionRow['familiarity'],
): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM practice.sessions
        WHERE user_id = ${userId}
          AND (${familiarity ?? null}::text IS NULL OR familiarity = ${familiarity ?? null})`,
  )
  return row?.n ?? 0
}

export interface ClosedSessionRow {
  candidate_count: number
  abandoned: boolean
  rank: number | null
  analytic_rank: number | null
  lock_lst_hours: number | null
  figure_of_merit: number | null
  chance_figure_of_merit: number | null
  by_category: Record<string, { described: number; matched: number }> | null
}

/** Every judged or abandoned session of the user, or of one series (the statistics: no cap). */
export async function closedSessionsOf(
  db: Queryable,
  filter: ({ userId: string } | { seriesId: string }) & {
    familiarity?: SessionRow['familiarity'] | undefined
  },
): Promise<ClosedSessionRow[]> {
  const owner =
    'seriesId' in filter ? sql`series_id = ${filter.seriesId}` : sql`user_id = ${filter.userId}`
  const familiarity = filter.familiarity ?? null
  return rows<ClosedSessionRow>(
    db,
    sql`SELECT candidate_count, judged_at IS NULL AS abandoned, rank, analytic_rank, lock_lst_hours,
               (score->>'figureOfMerit')::double precision AS figure_of_merit,
               chance_figure_of_merit, score->'byCategory' AS by_category
        FROM practice.sessions
        WHERE ${owner}
          AND (judged_at IS NOT NULL OR abandoned_at IS NOT NULL)
          AND (${familiarity}::text IS NULL OR familiarity = ${familiarity})
        ORDER BY started_at, id`,
  )
}

/** A new session with its drawn set (the one-open-session index refuses a second: 23505). */
export async function insertSession(
  db: Queryable,
  session: {
    userId: string
    poolId: string
    targetId: string
    trn: string
    nonce: string
    commitment: string
    candidateCommitment: string
    candidates: string[]
    candidateCount: number
    frontloading: string | null
    lstHours: number | null
    latitude: number | null
    longitude: number | null
    seriesId: string | null
    familiarity: SessionRow['familiarity']
    lastShownAt: number | null
  },
): Promise<SessionRow> {
  const s = session
  const [row] = await rows<SessionRow>(
    db,
    sql`INSERT INTO practice.sessions
          (user_id, pool_id, target_id, trn, nonce, commitment, candidate_commitment, candidates,
           candidate_count, frontloading, lst_hours, latitude, longitude, series_id, familiarity,
           last_shown_at)
        VALUES (${s.userId}, ${s.poolId}, ${s.targetId}, ${s.trn}, ${s.nonce}, ${s.commitment},
                ${s.candidateCommitment}, ${sql.param(s.candidates)}::uuid[], ${s.candidateCount},
                ${s.frontloading}, ${s.lstHours}, ${s.latitude}, ${s.longitude}, ${s.seriesId},
                ${s.familiarity}, to_timestamp(${s.lastShownAt}::double precision / 1000))
        RETURNING *`,
  )
  if (!row) throw new Error('session insert returned nothing')
  return sessionRow(row)
}
