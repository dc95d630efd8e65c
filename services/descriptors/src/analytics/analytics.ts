// First-party analytics: page views and tachistoscope events, stored in this service's schema
// and, when configured, forwarded to a Plausible or Umami server (docs/decisions.md).
import { AppError, clientKey, FixedWindowLimiter } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import type { Deps } from '../deps.ts'
import { cleanPath } from './events.ts'
import type { AnalyticsEvent } from './events.ts'
import { deleteEventsOlderThan, eventsOfLast, insertEvents } from './repository.ts'
import { analyticsWindow } from './views.ts'

type Schemas = components['schemas']

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Events per client (an IPv4 address or an IPv6 /64) per minute, counted in this process (the
 * kit's fixed window). The gateway's limit on every route still applies on top; this one keeps a
 * bot from filling the table.
 */
export class EventRateLimiter {
  private readonly windows: FixedWindowLimiter

  constructor(perMinute: number) {
    this.windows = new FixedWindowLimiter({ limit: perMinute, windowMs: 60_000 })
  }

  /**
   * Seconds to wait when `events` more would go over the limit, else 0 (and they are counted).
   * Events, not batches: 60 batches of 50 a minute let one address store 3,000 rows a minute.
   */
  take(ip: string, events: number, now = Date.now()): number {
    return this.windows.take(clientKey(ip), events, now)
  }
}

export const rateLimited = (wait: number) =>
  new AppError('rate_limited', 429, 'Too many requests. Please try again later', {
    retryAfterSeconds: wait,
  })

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
  return insertEvents(
    db,
    events.map((e) => ({
      name: e.name,
      path: cleanPath(e.path),
      userId,
      props: e.props ?? {},
      occurredAt: occurredAt(e.at, now),
    })),
  )
}

/** The sender of an event batch: the verified header token, else the body's, else nobody. */
export async function senderOf(
  deps: Pick<Deps, 'verifyToken'>,
  userId: string | null,
  token: string | undefined,
): Promise<string | null> {
  if (userId) return userId
  if (!token) return null
  return deps
    .verifyToken(token)
    .then((user) => user.id)
    .catch(() => null)
}

/** A batch stored (and forwarded when configured); returns how many were stored. */
export async function recordEvents(
  deps: Pick<Deps, 'db' | 'verifyToken' | 'forwarder' | 'log'>,
  batch: Schemas['EventBatch'],
  caller: { userId: string | null; userAgent: string | undefined; ip: string },
): Promise<number> {
  const userId = await senderOf(deps, caller.userId, batch.accessToken)
  const accepted = await storeEvents(deps.db, batch.events, userId)
  if (deps.forwarder) {
    deps
      .forwarder(batch.events, { userAgent: caller.userAgent, ip: caller.ip })
      .catch((err: Error) => deps.log.warn({ err: err.message }, 'analytics forwarding failed'))
  }
  return accepted
}

/** Removes events older than the retention period; returns how many went. */
export async function pruneEvents(db: Database, retentionDays: number): Promise<number> {
  return deleteEventsOlderThan(db, retentionDays)
}

export async function analyticsSummary(db: Database): Promise<Schemas['AnalyticsSummary']> {
  const windowOf = async (days: 7 | 30) => {
    const { pages, counts } = await eventsOfLast(db, days)
    return analyticsWindow(days, pages, counts)
  }
  return { windows: [await windowOf(7), await windowOf(30)] }
}
