// What an analytics event is, and the part of it that may leave the page (pure).
import type { components } from '@crv/contracts'

export type AnalyticsEvent = components['schemas']['AnalyticsEvent']

/** The path alone: a query or fragment could carry something personal. */
export const cleanPath = (path: string) => (path.split(/[?#]/)[0] ?? '/').slice(0, 200) || '/'
