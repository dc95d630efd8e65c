// Recorded events sent on to a Plausible or Umami server, when one is configured.
import type { DescriptorsConfig } from '../config.ts'
import { cleanPath } from './events.ts'
import type { AnalyticsEvent } from './events.ts'

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
