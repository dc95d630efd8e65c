// SQL of the practice schema. Rows come back as plain objects; no function here decides who may
// see what (the domain in sessions.ts does).
import type { Pool, PoolClient } from 'pg'
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

export type Queryable = Pool | PoolClient

/** The version of a pool's targets (migration 0007) a list read with it belongs to. */
export async function targetsVersion(db: Queryable, poolId: string): Promise<string> {
  const { rows } = await db.query<{ version: string }>(
    'SELECT targets_version::text AS version FROM practice.pools WHERE id = $1',
    [poolId],
  )
  return rows[0]?.version ?? '0'
}

/** An instant as the draw counts it: whole milliseconds since the epoch, as text. */
const MS = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint::text`

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
  const { rows } = await db.query<{
    version: string
    ids: string | null
    hints: (string | null)[] | null
    contributors: (string | null)[] | null
  }>(
    `SELECT (SELECT targets_version::text FROM practice.pools WHERE id = $1) AS version,
            string_agg(t.id::text, ',' ORDER BY t.id) AS ids,
            array_agg(t.frontloading ORDER BY t.id) AS hints,
            array_agg(t.contributed_by ORDER BY t.id) AS contributors
     FROM practice.targets t
     WHERE t.pool_id = $1 AND t.retired_at IS NULL AND t.deleted_at IS NULL`,
    [poolId],
  )
  const row = rows[0]
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
  const { rows } = await db.query<{ targets: string; showings: string | null }>(
    `SELECT (SELECT targets_version::text FROM practice.pools WHERE id = $1) AS targets,
            (SELECT ${MS('max(last_shown_at)')} FROM practice.seen WHERE user_id = $2) AS showings`,
    [poolId, userId],
  )
  return rows[0] ?? { targets: '0', showings: null }
}

/**
 * When each picture was last shown to the viewer (ms since the epoch, by target id), with the
 * version of those showings (see drawVersionsOf), in one statement.
 */
export async function lastShowingsOf(
  db: Queryable,
  userId: string,
): Promise<{ version: string | null; shown: Map<string, number> }> {
  const { rows } = await db.query<{
    version: string | null
    ids: string | null
    at: string | null
  }>(
    `SELECT ${MS('max(last_shown_at)')} AS version,
            string_agg(target_id::text, ',') AS ids,
            string_agg(${MS('last_shown_at')}, ',') AS at
     FROM practice.seen WHERE user_id = $1`,
    [userId],
  )
  const row = rows[0]
  const ids = row?.ids ? row.ids.split(',') : []
  const at = (row?.at ?? '').split(',')
  return {
    version: row?.version ?? null,
    shown: new Map(ids.map((id, i) => [id, Number(at[i])])),
  }
}

const OVERDUE = `judged_at IS NULL AND abandoned_at IS NULL
  AND started_at < now() - make_interval(secs => $2::double precision * 3600)`

/**
 * Closes the viewer's sessions past the limit as abandoned, then answers the one still open or
 * locked and unjudged, if any (one round trip: a start asks this first).
 */
export async function closeOverdueAndFindOpen(
  db: Queryable,
  userId: string,
  hours: number,
): Promise<{ id: string } | null> {
  const { rows } = await db.query<{ id: string }>(
    `WITH closed AS (
       UPDATE practice.sessions SET abandoned_at = now() WHERE user_id = $1 AND ${OVERDUE}
       RETURNING id)
     SELECT id FROM practice.sessions
     WHERE user_id = $1 AND judged_at IS NULL AND abandoned_at IS NULL
       AND id NOT IN (SELECT id FROM closed)`,
    [userId, hours],
  )
  return rows[0] ?? null
}

/** Closes one session as abandoned if it is past the limit; true if it is (now) abandoned. */
export async function closeIfOverdue(db: Queryable, row: SessionRow, hours: number) {
  if (row.abandoned_at) return true
  if (row.judged_at) return false
  // Most calls are well within the limit: no statement for them.
  if (row.started_at.getTime() > Date.now() - hours * 3600_000 + 60_000) return false
  const { rowCount } = await db.query(
    `UPDATE practice.sessions SET abandoned_at = now() WHERE id = $1 AND ${OVERDUE}`,
    [row.id, hours],
  )
  return (rowCount ?? 0) > 0
}

/** The viewer's session that is open or locked and unjudged, if any. */
export async function openSessionOf(db: Queryable, userId: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT * FROM practice.sessions
     WHERE user_id = $1 AND judged_at IS NULL AND abandoned_at IS NULL`,
    [userId],
  )
  return rows[0] ?? null
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
  const { rowCount } = await db.query(
    `UPDATE practice.sessions SET abandoned_at = now()
     WHERE ${OVERDUE} AND ($1::text IS NULL OR user_id = $1)`,
    [userId, hours],
  )
  return rowCount ?? 0
}

const SERIES_WITH_COUNTS = `SELECT r.*,
    (SELECT count(*)::int FROM practice.sessions s WHERE s.series_id = r.id) AS started,
    (SELECT count(*)::int FROM practice.sessions s
     WHERE s.series_id = r.id AND (s.judged_at IS NOT NULL OR s.abandoned_at IS NOT NULL)) AS closed
  FROM practice.series r`

export async function seriesOf(db: Queryable, userId: string): Promise<SeriesRow[]> {
  const { rows } = await db.query<SeriesRow>(
    `${SERIES_WITH_COUNTS} WHERE r.user_id = $1 ORDER BY r.declared_at DESC, r.id LIMIT 1000`,
    [userId],
  )
  return rows
}

/** The viewer's series that still takes sessions (fewer started than declared), if any. */
export async function seriesTakingSessions(
  db: Queryable,
  userId: string,
): Promise<SeriesRow | null> {
  const { rows } = await db.query<SeriesRow>(
    `SELECT * FROM (${SERIES_WITH_COUNTS} WHERE r.user_id = $1) x
     WHERE x.started < x.sessions ORDER BY x.declared_at LIMIT 1`,
    [userId],
  )
  return rows[0] ?? null
}

export async function insertSeries(
  db: Queryable,
  userId: string,
  declared: { sessions: number; candidates: number; judging: 'self' | 'analytic' },
): Promise<SeriesRow> {
  const { rows } = await db.query<SeriesRow>(
    `INSERT INTO practice.series (user_id, sessions, candidate_count, judging)
     VALUES ($1, $2, $3, $4) RETURNING *, 0 AS started, 0 AS closed`,
    [userId, declared.sessions, declared.candidates, declared.judging],
  )
  return rows[0] as SeriesRow
}

export async function sessionOf(
  db: Queryable,
  id: string,
  userId: string,
  forUpdate = false,
): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT * FROM practice.sessions WHERE id = $1 AND user_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, userId],
  )
  return rows[0] ?? null
}

// The writes below are single conditional statements, not read-lock-write transactions: on the
// embedded database a transaction holds every service's queries until it ends, and these need
// none. Each answers null when the session is not (or no longer) in the state it needs; the
// domain reads the session again to say why.
const stillOpen = (hoursParameter: string) => `judged_at IS NULL AND abandoned_at IS NULL
  AND started_at >= now() - make_interval(secs => ${hoursParameter}::double precision * 3600)`

/** Saves the write-up of an unlocked session (of this revision, when one is given). */
export async function saveWriteUpIfOpen(
  db: Queryable,
  session: { id: string; userId: string; abandonAfterHours: number },
  writeUp: unknown,
  revision: number | undefined,
): Promise<{ revision: number; updated_at: Date } | null> {
  const { rows } = await db.query<{ revision: number; updated_at: Date }>(
    `UPDATE practice.sessions SET write_up = $4, revision = revision + 1, updated_at = now()
     WHERE id = $1 AND user_id = $2 AND locked_at IS NULL AND ${stillOpen('$3')}
       AND ($5::int IS NULL OR revision = $5)
     RETURNING revision, updated_at`,
    [
      session.id,
      session.userId,
      session.abandonAfterHours,
      JSON.stringify(writeUp),
      revision ?? null,
    ],
  )
  return rows[0] ?? null
}

/** Locks a session whose write-up is still the revision that was hashed and judged. */
/** What a lock did to the viewer's showings' version (see drawVersionsOf): before, and now. */
export interface LockedShowings {
  shown_version: string
  shown_version_before: string | null
}

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
  const { rows } = await db.query<SessionRow & LockedShowings>(
    `WITH locked AS (
       UPDATE practice.sessions SET locked_at = now(), write_up_sha256 = $4, analytic_rank = $5,
         chance_figure_of_merit = $6, lock_lst_hours = $7
       WHERE id = $1 AND revision = $2 AND locked_at IS NULL AND ${stillOpen('$3')}
       RETURNING *),
     shown AS (
       INSERT INTO practice.seen (user_id, target_id, last_shown_at)
       SELECT l.user_id, c.id, l.locked_at FROM locked l, unnest(l.candidates) AS c (id)
       ON CONFLICT (user_id, target_id) DO UPDATE SET last_shown_at = EXCLUDED.last_shown_at)
     SELECT l.*, ${MS('l.locked_at')} AS shown_version,
            (SELECT ${MS('max(s.last_shown_at)')} FROM practice.seen s
             WHERE s.user_id = l.user_id) AS shown_version_before
     FROM locked l`,
    [
      session.id,
      session.revision,
      session.abandonAfterHours,
      lock.writeUpSha256,
      lock.analyticRank,
      lock.chanceFigureOfMerit,
      lock.lstHours,
    ],
  )
  return rows[0] ?? null
}

/** Records the viewer's ranking and score on a locked, unjudged session. */
export async function judgeIfLocked(
  db: Queryable,
  session: { id: string; abandonAfterHours: number },
  judgement: { ranking: string[]; rank: number; score: unknown },
): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `UPDATE practice.sessions SET judged_at = now(), ranking = $3::uuid[], rank = $4, score = $5
     WHERE id = $1 AND locked_at IS NOT NULL AND candidates IS NOT NULL AND ${stillOpen('$2')}
     RETURNING *`,
    [
      session.id,
      session.abandonAfterHours,
      judgement.ranking,
      judgement.rank,
      JSON.stringify(judgement.score),
    ],
  )
  return rows[0] ?? null
}

/** The newest 1,000 sessions of the user (the history lists). */
export async function sessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionRow>(
    'SELECT * FROM practice.sessions WHERE user_id = $1 ORDER BY started_at DESC, id LIMIT 1000',
    [userId],
  )
  return rows
}

/** Every session of the user, oldest first (their export). */
export async function allSessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionRow>(
    'SELECT * FROM practice.sessions WHERE user_id = $1 ORDER BY started_at, id',
    [userId],
  )
  return rows
}

/** Deletes every session of the user (their account is going). */
export async function deleteSessionsOf(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM practice.seen WHERE user_id = $1', [userId])
  await db.query('DELETE FROM practice.sessions WHERE user_id = $1', [userId])
}

export async function countSessionsOf(
  db: Queryable,
  userId: string,
  familiarity?: SessionRow['familiarity'],
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM practice.sessions
     WHERE user_id = $1 AND ($2::text IS NULL OR familiarity = $2)`,
    [userId, familiarity ?? null],
  )
  return rows[0]?.n ?? 0
}

export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {})
    throw err
  } finally {
    client.release()
  }
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
  const bySeries = 'seriesId' in filter
  const { rows } = await db.query<ClosedSessionRow>(
    `SELECT candidate_count, judged_at IS NULL AS abandoned, rank, analytic_rank, lock_lst_hours,
            (score->>'figureOfMerit')::double precision AS figure_of_merit,
            chance_figure_of_merit, score->'byCategory' AS by_category
     FROM practice.sessions
     WHERE ${bySeries ? 'series_id = $1' : 'user_id = $1'}
       AND (judged_at IS NOT NULL OR abandoned_at IS NOT NULL)
       AND ($2::text IS NULL OR familiarity = $2)
     ORDER BY started_at, id`,
    [bySeries ? filter.seriesId : filter.userId, filter.familiarity ?? null],
  )
  return rows
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
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO practice.sessions
       (user_id, pool_id, target_id, trn, nonce, commitment, candidate_commitment, candidates,
        candidate_count, frontloading, lst_hours, latitude, longitude, series_id, familiarity,
        last_shown_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[], $9, $10, $11, $12, $13, $14, $15,
             to_timestamp($16::double precision / 1000))
     RETURNING *`,
    [
      session.userId,
      session.poolId,
      session.targetId,
      session.trn,
      session.nonce,
      session.commitment,
      session.candidateCommitment,
      session.candidates,
      session.candidateCount,
      session.frontloading,
      session.lstHours,
      session.latitude,
      session.longitude,
      session.seriesId,
      session.familiarity,
      session.lastShownAt,
    ],
  )
  const row = rows[0]
  if (!row) throw new Error('session insert returned nothing')
  return row
}
