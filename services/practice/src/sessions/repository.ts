// Every statement about sessions, series and showings. Rows come back as plain objects; no
// function here decides who may see what (the domain in sessions.ts does).
import { and, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { rows, withDates } from '@crv/kit/db'
import { seen, series, sessions } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'
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
export type { Queryable }

const SESSION_DATES = [
  'started_at',
  'updated_at',
  'locked_at',
  'judged_at',
  'abandoned_at',
  'last_shown_at',
] as const
const sessionRow = <T extends SessionRow>(row: T): T => withDates(row, SESSION_DATES)

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
  /** Its picture's SHA-256 (a start commits to its set's pictures by these). */
  imageSha256: string
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
    hashes: string | null
  }>(
    db,
    sql`SELECT (SELECT targets_version::text FROM practice.pools WHERE id = ${poolId}) AS version,
               string_agg(t.id::text, ',' ORDER BY t.id) AS ids,
               array_agg(t.frontloading ORDER BY t.id) AS hints,
               array_agg(t.contributed_by ORDER BY t.id) AS contributors,
               string_agg(t.image_sha256, ',' ORDER BY t.id) AS hashes
        FROM practice.targets t
        WHERE t.pool_id = ${poolId} AND t.retired_at IS NULL AND t.deleted_at IS NULL`,
  )
  const ids = row?.ids ? row.ids.split(',') : []
  const hashes = row?.hashes ? row.hashes.split(',') : []
  return {
    version: row?.version ?? '0',
    targets: ids.map((id, i) => ({
      id,
      frontloading: row?.hints?.[i] ?? null,
      contributedBy: row?.contributors?.[i] ?? null,
      imageSha256: hashes[i] ?? '',
    })),
  }
}

/** The versions a draw's kept lists are checked against (see drawVersionsOf). */
export interface DrawVersions {
  targets: string
  showings: string | null
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
): Promise<DrawVersions> {
  const [row] = await rows<DrawVersions>(
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
const overdue = (hours: number): SQL => sql`${sessions.judgedAt} IS NULL
  AND ${sessions.abandonedAt} IS NULL
  AND ${sessions.startedAt} < now() - make_interval(secs => ${hours}::double precision * 3600)`

/** Every column of a session under its SQL name (the row `SELECT *` gives). */
const sessionColumns = {
  id: sessions.id,
  user_id: sessions.userId,
  pool_id: sessions.poolId,
  target_id: sessions.targetId,
  trn: sessions.trn,
  nonce: sessions.nonce,
  commitment: sessions.commitment,
  candidate_count: sessions.candidateCount,
  frontloading: sessions.frontloading,
  started_at: sessions.startedAt,
  lst_hours: sessions.lstHours,
  latitude: sessions.latitude,
  longitude: sessions.longitude,
  write_up: sessions.writeUp,
  revision: sessions.revision,
  updated_at: sessions.updatedAt,
  locked_at: sessions.lockedAt,
  write_up_sha256: sessions.writeUpSha256,
  candidates: sessions.candidates,
  judged_at: sessions.judgedAt,
  ranking: sessions.ranking,
  rank: sessions.rank,
  score: sessions.score,
  candidate_commitment: sessions.candidateCommitment,
  abandoned_at: sessions.abandonedAt,
  lock_lst_hours: sessions.lockLstHours,
  analytic_rank: sessions.analyticRank,
  chance_figure_of_merit: sessions.chanceFigureOfMerit,
  series_id: sessions.seriesId,
  familiarity: sessions.familiarity,
  last_shown_at: sessions.lastShownAt,
}

/** What a start reads before it draws (see startReadsOf). */
export interface StartReads {
  /** The viewer's session still open or locked and unjudged, if any. */
  openId: string | null
  /** The viewer's series that still takes sessions (the oldest), if any. */
  series: { id: string; candidate_count: number } | null
  /** The versions of the pool's targets and of the viewer's showings (see drawVersionsOf). */
  versions: DrawVersions
  /** False when no pool has this id. */
  poolFound: boolean
}

/**
 * Everything a start reads, in one statement (each statement is a turn of the embedded
 * database's one thread): the viewer's sessions past the limit closed as abandoned, then the one
 * still open, the series that still takes sessions, whether the pool exists, and the versions
 * its draw is checked against. The rest of the statement does not see the closing (one
 * snapshot), so the sessions it closed are left out by id.
 */
export async function startReadsOf(
  db: Queryable,
  userId: string,
  poolId: string,
  hours: number,
): Promise<StartReads> {
  const [row] = await rows<{
    open_id: string | null
    series_id: string | null
    series_candidates: number | null
    targets: string | null
    showings: string | null
  }>(
    db,
    sql`WITH closed AS (
          UPDATE practice.sessions SET abandoned_at = now()
          WHERE user_id = ${userId} AND ${overdue(hours)}
          RETURNING id)
        SELECT (SELECT id FROM practice.sessions
                WHERE user_id = ${userId} AND judged_at IS NULL AND abandoned_at IS NULL
                  AND id NOT IN (SELECT id FROM closed)
                LIMIT 1) AS open_id,
               taking.id AS series_id, taking.candidate_count AS series_candidates,
               (SELECT targets_version::text FROM practice.pools WHERE id = ${poolId}) AS targets,
               (SELECT ${MS('max(last_shown_at)')} FROM practice.seen
                WHERE user_id = ${userId}) AS showings
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL (
          SELECT se.id, se.candidate_count FROM practice.series se
          WHERE se.user_id = ${userId}
            AND (SELECT count(*) FROM practice.sessions x WHERE x.series_id = se.id) < se.sessions
          ORDER BY se.declared_at, se.id LIMIT 1) AS taking ON true`,
  )
  return {
    openId: row?.open_id ?? null,
    series:
      row?.series_id && row.series_candidates !== null
        ? { id: row.series_id, candidate_count: row.series_candidates }
        : null,
    versions: { targets: row?.targets ?? '0', showings: row?.showings ?? null },
    poolFound: (row?.targets ?? null) !== null,
  }
}

/** Closes one session as abandoned if it is past the limit; true if it is (now) abandoned. */
export async function closeIfOverdue(db: Queryable, row: SessionRow, hours: number) {
  if (row.abandoned_at) return true
  if (row.judged_at) return false
  // Most calls are well within the limit: no statement for them.
  if (row.started_at.getTime() > Date.now() - hours * 3600_000 + 60_000) return false
  const closed = await db
    .update(sessions)
    .set({ abandonedAt: sql`now()` })
    .where(and(eq(sessions.id, row.id), overdue(hours)))
    .returning({ id: sessions.id })
  return closed.length > 0
}

/** The viewer's session that is open or locked and unjudged, if any. */
export async function openSessionOf(db: Queryable, userId: string): Promise<SessionRow | null> {
  const [row] = await db
    .select(sessionColumns)
    .from(sessions)
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.judgedAt), isNull(sessions.abandonedAt)),
    )
  return row ?? null
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
  const result = await db
    .update(sessions)
    .set({ abandonedAt: sql`now()` })
    .where(and(overdue(hours), userId === null ? undefined : eq(sessions.userId, userId)))
  return result.rowCount ?? 0
}

/** Every column of a series under its SQL name. */
const seriesColumns = {
  id: series.id,
  user_id: series.userId,
  declared_at: series.declaredAt,
  sessions: series.sessions,
  candidate_count: series.candidateCount,
  judging: series.judging,
}

/** A series with how many sessions it started, and of those the ones judged or abandoned. */
// The conditions are `eq`/`and` and not columns written into the text: Drizzle leaves a column
// written straight into a selected `sql` unqualified, which the subquery would read as its own.
const seriesWithCounts = {
  ...seriesColumns,
  started: sql<number>`(SELECT count(*)::int FROM ${sessions}
    WHERE ${eq(sessions.seriesId, series.id)})`,
  closed: sql<number>`(SELECT count(*)::int FROM ${sessions}
    WHERE ${and(
      eq(sessions.seriesId, series.id),
      or(isNotNull(sessions.judgedAt), isNotNull(sessions.abandonedAt)),
    )})`,
}

export async function seriesOf(db: Queryable, userId: string): Promise<SeriesRow[]> {
  return db
    .select(seriesWithCounts)
    .from(series)
    .where(eq(series.userId, userId))
    .orderBy(desc(series.declaredAt), series.id)
    .limit(1000)
}

export async function insertSeries(
  db: Queryable,
  userId: string,
  declared: { sessions: number; candidates: number; judging: 'self' | 'analytic' },
): Promise<SeriesRow> {
  const [row] = await db
    .insert(series)
    .values({
      userId,
      sessions: declared.sessions,
      candidateCount: declared.candidates,
      judging: declared.judging,
    })
    .returning(seriesColumns)
  if (!row) throw new Error('series insert returned nothing')
  return { ...row, started: 0, closed: 0 }
}

export async function sessionOf(
  db: Queryable,
  id: string,
  userId: string,
  forUpdate = false,
): Promise<SessionRow | null> {
  const query = db
    .select(sessionColumns)
    .from(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
  const [row] = forUpdate ? await query.for('update') : await query
  return row ?? null
}

// The writes below are single conditional statements, not read-lock-write transactions: on the
// embedded database a transaction holds every service's queries until it ends, and these need
// none. Each answers null when the session is not (or no longer) in the state it needs; the
// domain reads the session again to say why.
const stillOpen = (hours: number): SQL => sql`${sessions.judgedAt} IS NULL
  AND ${sessions.abandonedAt} IS NULL
  AND ${sessions.startedAt} >= now() - make_interval(secs => ${hours}::double precision * 3600)`

/** Saves the write-up of an unlocked session (of this revision, when one is given). */
export async function saveWriteUpIfOpen(
  db: Queryable,
  session: { id: string; userId: string; abandonAfterHours: number },
  writeUp: unknown,
  revision: number | undefined,
): Promise<{ revision: number; updated_at: Date } | null> {
  const expected = revision ?? null
  const [row] = await db
    .update(sessions)
    .set({
      writeUp: sql`${JSON.stringify(writeUp)}`,
      revision: sql`${sessions.revision} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(sessions.id, session.id),
        eq(sessions.userId, session.userId),
        isNull(sessions.lockedAt),
        stillOpen(session.abandonAfterHours),
        expected === null ? undefined : eq(sessions.revision, expected),
      ),
    )
    .returning({ revision: sessions.revision, updated_at: sessions.updatedAt })
  return row ?? null
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
  const [row] = await db
    .update(sessions)
    .set({
      judgedAt: sql`now()`,
      ranking: judgement.ranking,
      rank: judgement.rank,
      score: sql`${JSON.stringify(judgement.score)}`,
    })
    .where(
      and(
        eq(sessions.id, session.id),
        isNotNull(sessions.lockedAt),
        isNotNull(sessions.candidates),
        stillOpen(session.abandonAfterHours),
      ),
    )
    .returning(sessionColumns)
  return row ?? null
}

/** The newest 1,000 sessions of the user (the history lists). */
export async function sessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  return db
    .select(sessionColumns)
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.startedAt), sessions.id)
    .limit(1000)
}

/** Every session of the user, oldest first (their export). */
export async function allSessionsOf(db: Queryable, userId: string): Promise<SessionRow[]> {
  return db
    .select(sessionColumns)
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(sessions.startedAt, sessions.id)
}

/** Deletes every session of the user (their account is going). */
export async function deleteSessionsOf(db: Queryable, userId: string): Promise<void> {
  await db.delete(seen).where(eq(seen.userId, userId))
  await db.delete(sessions).where(eq(sessions.userId, userId))
}

export async function countSessionsOf(
  db: Queryable,
  userId: string,
  familiarity?: SessionRow['familiarity'],
): Promise<number> {
  const wanted = familiarity ?? null
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        wanted === null ? undefined : eq(sessions.familiarity, wanted),
      ),
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
    'seriesId' in filter
      ? eq(sessions.seriesId, filter.seriesId)
      : eq(sessions.userId, filter.userId)
  const familiarity = filter.familiarity ?? null
  return db
    .select({
      candidate_count: sessions.candidateCount,
      abandoned: sql<boolean>`${sessions.judgedAt} IS NULL`,
      rank: sessions.rank,
      analytic_rank: sessions.analyticRank,
      lock_lst_hours: sessions.lockLstHours,
      figure_of_merit: sql<number | null>`(${sessions.score}->>'figureOfMerit')::double precision`,
      chance_figure_of_merit: sessions.chanceFigureOfMerit,
      by_category: sql<ClosedSessionRow['by_category']>`${sessions.score}->'byCategory'`,
    })
    .from(sessions)
    .where(
      and(
        owner,
        or(isNotNull(sessions.judgedAt), isNotNull(sessions.abandonedAt)),
        familiarity === null ? undefined : eq(sessions.familiarity, familiarity),
      ),
    )
    .orderBy(sessions.startedAt, sessions.id)
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
  const [row] = await db
    .insert(sessions)
    .values({
      userId: s.userId,
      poolId: s.poolId,
      targetId: s.targetId,
      trn: s.trn,
      nonce: s.nonce,
      commitment: s.commitment,
      candidateCommitment: s.candidateCommitment,
      candidates: s.candidates,
      candidateCount: s.candidateCount,
      frontloading: s.frontloading,
      lstHours: s.lstHours,
      latitude: s.latitude,
      longitude: s.longitude,
      seriesId: s.seriesId,
      familiarity: s.familiarity,
      lastShownAt: sql`to_timestamp(${s.lastShownAt}::double precision / 1000)`,
    })
    .returning(sessionColumns)
  if (!row) throw new Error('session insert returned nothing')
  return row
}
