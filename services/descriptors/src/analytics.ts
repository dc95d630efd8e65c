// First-party analytics: page views and tachistoscope events, stored in this service's schema
// and, when configured, forwarded to a Plausible or Umami server (docs/decisions.md).
import { sql } from 'drizzle-orm'
import { clientKey } from '@crv/kit'
import { rows } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { DescriptorsConfig } from './config.ts'

type Schemas = components['schemas']
export type AnalyticsEvent = Schemas['AnalyticsEvent']

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Events per client (an IPv4 address or an IPv6 /64) per minute, counted in this process (a
 * fixed window). The gateway's limit on every route still applies on top; this one keeps a bot
 * from filling the table.
 */
export class EventRateLimiter {
  private readonly perMinute: number
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(perMinute: number) {
    this.perMinute = perMinute
  }

  /**
   * Seconds to wait when `events` more would go over the limit, else 0 (and they are counted).
   * Events, not batches: 60 batches of 50 a minute let one address store 3,000 rows a minute.
   */
  take(ip: string, events: number, now = Date.now()): number {
    const client = clientKey(ip)
    const window = this.windows.get(client)
    if (!window || now - window.start >= 60_000) {
      // Old windows go before the map grows without bound under many addresses.
      if (this.windows.size >= 10_000) {
        for (const [key, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(key)
      }
      if (events > this.perMinute) return 60
      this.windows.set(client, { start: now, count: events })
      return 0
    }
    if (window.count + events > this.perMinute)
      return Math.ceil((window.start + 60_000 - now) / 1000)
    window.count += events
    return 0
  }
}

/** The path alone: a query or fragment could carry something personal. */
export const cleanPath = (path: string) => (path.split(/[?#]/)[0] ?? '/').slice(0, 200) || '/'

/** The client's clock when plausible (within a day), else the server's. */
function occurredAt(at: string | undefined, now: number): Date {
  const t = at ? Date.parse(at) : Number.NaN
  return Number.isFinite(t) && Math.abs(t - now) < DAY_MS ? new Date(t) : new Date(now)
}

export async function storeEvents(
  db: Database,
  events: AnalyticsEvent[],
  userId: string | null,
  now = Date.now(),
): Promise<number> {
  if (events.length === 0) return 0
  const values = events.map(
    (e) =>
      sql`(${e.name}, ${cleanPath(e.path)}, ${userId}, ${JSON.stringify(e.props ?? {})}::jsonb, ${occurredAt(e.at, now).toISOString()})`,
  )
  const result = await db.execute(
    sql`INSERT INTO descriptors.analytics_events (name, path, user_id, props, occurred_at) VALUES ${sql.join(values, sql`, `)}`,
  )
  return result.rowCount ?? events.length
}

/** Removes events older than the retention period; returns how many went. */
export async function pruneEvents(db: Database, retentionDays: number): Promise<number> {
  const result = await db.execute(
    sql`DELETE FROM descriptors.analytics_events WHERE occurred_at < now() - make_interval(days => ${retentionDays})`,
  )
  return result.rowCount ?? 0
}

export async function analyticsSummary(db: Database): Promise<Schemas['AnalyticsSummary']> {
  const windowOf = async (days: 7 | 30): Promise<Schemas['AnalyticsWindow']> => {
    const since = sql`now() - make_interval(days => ${days})`
    const [pages, [counts]] = await Promise.all([
      rows<{ path: string; views: string }>(
        db,
        sql`
        SELECT path, count(*) AS views FROM descriptors.analytics_events
        WHERE name = 'page_view' AND occurred_at > ${since}
        GROUP BY path ORDER BY views DESC, path LIMIT 100`,
      ),
      rows<Record<string, string>>(
        db,
        sql`
        SELECT count(*) FILTER (WHERE name = 'page_view') AS page_views,
               count(*) FILTER (WHERE name = 'tachistoscope_start') AS starts,
               count(*) FILTER (WHERE name = 'tachistoscope_show_again') AS show_again,
               count(*) FILTER (WHERE name = 'tachistoscope_complete') AS completed
        FROM descriptors.analytics_events WHERE occurred_at > ${since}`,
      ),
    ])
    return {
      days,
      totalPageViews: Number(counts?.page_views ?? 0),
      pageViews: pages.map((r) => ({
        path: r.path,
        views: Number(r.views),
      })),
      tachistoscope: {
        sessions: Number(counts?.starts ?? 0),
        showAgain: Number(counts?.show_again ?? 0),
        completed: Number(counts?.completed ?? 0),
      },
    }
  }
  return { windows: [await windowOf(7), await windowOf(30)] }
}

export interface ForwardContext {
  userAgent: string | undefined
  ip: string
}

export type Forwarder = (events: AnalyticsEvent[], context: ForwardContext) => Promise<void>

/**
 * Sends events on to Plausible (`POST /api/event`) or Umami (`POST /api/send`) when configured.
 * Never the user id: only what those tools record themselves (path, event name, properties,
 * and the browser's user agent and address, which they need to count visitors).
 */
export function createForwarder(
  config: Pick<DescriptorsConfig, 'ANALYTICS_PROVIDER' | 'ANALYTICS_URL' | 'ANALYTICS_SITE'>,
): Forwarder | null {
  if (config.ANALYTICS_PROVIDER === 'none') return null
  const base = config.ANALYTICS_URL
  const site = config.ANALYTICS_SITE
  if (!base || !site) {
    throw new Error(
      `ANALYTICS_PROVIDER=${config.ANALYTICS_PROVIDER} needs ANALYTICS_URL and ANALYTICS_SITE`,
    )
  }
  const plausible = config.ANALYTICS_PROVIDER === 'plausible'
  const endpoint = new URL(plausible ? '/api/event' : '/api/send', base).href
  const bodyOf = (e: AnalyticsEvent) => {
    const path = cleanPath(e.path)
    if (plausible) {
      return {
        name: e.name === 'page_view' ? 'pageview' : e.name,
        url: `https://${site}${path}`,
        domain: site,
        ...(e.props ? { props: e.props } : {}),
      }
    }
    return {
      type: 'event',
      payload: {
        website: site,
        url: path,
        ...(e.name === 'page_view' ? {} : { name: e.name }),
        ...(e.props ? { data: e.props } : {}),
      },
    }
  }
  return async (events, context) => {
    for (const event of events) {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': context.userAgent ?? 'crv-training',
          'x-forwarded-for': context.ip,
        },
        body: JSON.stringify(bodyOf(event)),
        signal: AbortSignal.timeout(3_000),
      })
      if (!response.ok) throw new Error(`${config.ANALYTICS_PROVIDER} answered ${response.status}`)
    }
  }
}
