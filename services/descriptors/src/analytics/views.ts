import type { components } from '@crv/contracts'
import type { EventCountsRow, PageViewsRow } from './repository.ts'

type Schemas = components['schemas']

export const analyticsWindow = (
  days: 7 | 30,
  pages: PageViewsRow[],
  counts: Partial<EventCountsRow> | undefined,
): Schemas['AnalyticsWindow'] => ({
  days,
  totalPageViews: Number(counts?.page_views ?? 0),
  pageViews: pages.map((r) => ({ path: r.path, views: Number(r.views) })),
  tachistoscope: {
    sessions: Number(counts?.starts ?? 0),
    showAgain: Number(counts?.show_again ?? 0),
    completed: Number(counts?.completed ?? 0),
  },
})
