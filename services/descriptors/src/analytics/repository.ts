// Every statement of the analytics area: the events table of the descriptors schema.
import { sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import type { Executor } from '@crv/kit/db'

export interface EventRow {
  name: string
  path: string
  userId: string | null
  props: Record<string, unknown>
  occurredAt: Date
}

/** Stores the events; returns how many rows went in. */
export async function insertEvents(db: Executor, events: EventRow[]): Promise<number> {
  const values = events.map(
    (e) =>
      sql`(${e.name}, ${e.path}, ${e.userId}, ${JSON.stringify(e.props)}::jsonb, ${e.occurredAt.toISOString()})`,
  )
  const result = await db.execute(
    sql`INSERT INTO descriptors.analytics_events (name, path, user_id, props, occurred_at) VALUES ${sql.join(values, sql`, `)}`,
  )
  return result.rowCount ?? events.length
}

/** Removes events older than `days`; returns how many went. */
export async function deleteEventsOlderThan(db: Executor, days: number): Promise<number> {
  const result = await db.execute(
    sql`DELETE FROM descriptors.analytics_events WHERE occurred_at < now() - make_interval(days => ${days})`,
  )
  return result.rowCount ?? 0
}

export interface PageViewsRow {
  path: string
  views: string
}

export interface EventCountsRow {
  page_views: string
  starts: string
  show_again: string
  completed: string
}

/** The most viewed paths of the last `days` days, and the counts of the events that matter. */
export async function eventsOfLast(db: Executor, days: number) {
  const since = sql`now() - make_interval(days => ${days})`
  const [pages, [counts]] = await Promise.all([
    rows<PageViewsRow>(
      db,
      sql`
        SELECT path, count(*) AS views FROM descriptors.analytics_events
        WHERE name = 'page_view' AND occurred_at > ${since}
        GROUP BY path ORDER BY views DESC, path LIMIT 100`,
    ),
    rows<Partial<EventCountsRow>>(
      db,
      sql`
        SELECT count(*) FILTER (WHERE name = 'page_view') AS page_views,
               count(*) FILTER (WHERE name = 'tachistoscope_start') AS starts,
               count(*) FILTER (WHERE name = 'tachistoscope_show_again') AS show_again,
               count(*) FILTER (WHERE name = 'tachistoscope_complete') AS completed
        FROM descriptors.analytics_events WHERE occurred_at > ${since}`,
    ),
  ])
  return { pages, counts }
}
