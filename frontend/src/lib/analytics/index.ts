// First-party analytics: page views and the tachistoscope's events, batched and sent to
// POST /api/events — with navigator.sendBeacon when the page is hidden (it survives the page
// closing), else when a batch fills or the app has been quiet for a few seconds. Nothing personal
// is sent: the path without its query, the event's own plain properties and, for a signed-in
// user, the access token so the server can verify who it was (sendBeacon cannot send headers).
export type AnalyticsEvent =
  'page_view' | 'tachistoscope_start' | 'tachistoscope_show_again' | 'tachistoscope_complete'

export type EventProps = Record<string, string | number | boolean>

type QueuedEvent = { name: AnalyticsEvent; path: string; at: string; props: EventProps }

export const eventsUrl = '/api/events'
/** The server takes at most 50 events a batch; a batch is sent once this many wait. */
const batchSize = 20
const maxQueued = 200
const quietMs = 10_000
const maxProps = 8

const pending: QueuedEvent[] = []
let accessToken: () => string | null = () => null
let quietTimer: ReturnType<typeof setTimeout> | undefined

/** The path alone: a query or fragment could carry something personal. */
export function cleanPath(path: string): string {
  const bare = (path.split(/[?#]/)[0] ?? '/').slice(0, 200)
  return bare.startsWith('/') ? bare : '/'
}

/** At most eight short, plain properties; anything else is dropped, not sent. */
function cleanProps(props: EventProps): EventProps {
  const out: EventProps = {}
  for (const [key, value] of Object.entries(props).slice(0, maxProps)) {
    if (key.length > 40) continue
    if (typeof value === 'string') out[key] = value.slice(0, 100)
    else if (typeof value === 'boolean' || Number.isFinite(value)) out[key] = value
  }
  return out
}

function currentPath(): string {
  return typeof location === 'undefined' ? '/' : location.pathname
}

export function track(name: AnalyticsEvent, props: EventProps = {}): void {
  queue({ name, path: cleanPath(currentPath()), at: new Date().toISOString(), props })
}

export function trackPageView(path: string): void {
  queue({ name: 'page_view', path: cleanPath(path), at: new Date().toISOString(), props: {} })
}

function queue(event: QueuedEvent): void {
  pending.push({ ...event, props: cleanProps(event.props) })
  // A page left open with the network down must not grow without bound: oldest go first.
  if (pending.length > maxQueued) pending.splice(0, pending.length - maxQueued)
  if (pending.length >= batchSize) {
    flush()
    return
  }
  if (quietTimer !== undefined) clearTimeout(quietTimer)
  quietTimer = setTimeout(() => flush(), quietMs)
}

/** Events recorded and not yet sent. */
export const pendingEvents = (): readonly QueuedEvent[] => pending

/** Where the signed-in user's access token comes from (set by the app once). */
export function setAccessTokenSource(source: () => string | null): void {
  accessToken = source
}

function bodyOf(events: QueuedEvent[]): string {
  const token = accessToken()
  return JSON.stringify({
    events: events.map(({ name, path, at, props }) => ({
      name,
      path,
      at,
      ...(Object.keys(props).length > 0 ? { props } : {}),
    })),
    ...(token ? { accessToken: token } : {}),
  })
}

/** Sends what is queued, in batches of at most 50. */
export function flush(): void {
  if (quietTimer !== undefined) clearTimeout(quietTimer)
  quietTimer = undefined
  while (pending.length > 0) {
    const body = bodyOf(pending.splice(0, 50))
    if (!beacon(body)) {
      // Analytics never bothers the user: a failure is dropped silently.
      void fetch(eventsUrl, {
        method: 'POST',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body,
      }).catch(() => undefined)
    }
  }
}

function beacon(body: string): boolean {
  try {
    if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return false
    return navigator.sendBeacon(eventsUrl, new Blob([body], { type: 'application/json' }))
  } catch {
    return false
  }
}

let started = false

/** Sends the queue whenever the page is hidden or left. Idempotent. */
export function startAnalytics(): void {
  if (started || typeof window === 'undefined') return
  started = true
  window.addEventListener('pagehide', () => flush())
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush()
  })
}
