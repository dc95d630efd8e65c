// Every statement of the analytics area: the events table of the descriptors schema.
import { lt, sql } from 'drizzle-orm'
import { rows } from '@crv/kit/db'
import { analyticsEvents } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

export interface EventRow {
  name: string
  path: string
  userId: string | null
  props: Record<string, unknown>
  occurredAt: Date
}

/** Stores the events; returns how many rows went in. */
export async function insertEvents(db: Queryable, events: EventRow[]): Promise<number> {
  const result = await db
    .insert(analyticsEvents)
    .values(events.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() })))
  return result.rowCount ?? events.length
}

/** Removes events older than `days`; returns how many went. */
export async function deleteEventsOlderThan(db: Queryable, days: number): Promise<number> {
  const result = await db
    .delete(analyticsEvents)
    .where(lt(analyticsEvents.occurredAt, sql`now() - make_interval(days => ${days})`))
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
export async function eventsOfLast(db: Queryable, days: number) {
  const since = sql`now() - make_interval(days => ${days})`
  const [pages, [counts]] = await Promise.all([
    rows<PageViewsRow>(
      db,
      sql`
        SELECT path, count(*) AS views FROM ${analyticsEvents}
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
        FROM ${analyticsEvents} WHERE occurred_at > ${since}`,
    ),
  ])
  return { pages, counts }
}
