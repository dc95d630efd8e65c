import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import { analyticsSummary, EventRateLimiter, rateLimited, recordEvents } from './analytics.ts'

export function analyticsRoutes(deps: Deps): Handlers {
  const limiter = new EventRateLimiter(deps.eventsPerMinute)
  return defineHandlers('descriptors', {
    recordEvents: async ({ body, user, request, reply }) => {
      const wait = limiter.take(request.ip, body.events.length)
      if (wait > 0) {
        reply.header('retry-after', String(wait))
        throw rateLimited(wait)
      }
      const caller = {
        userId: user?.id ?? null,
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      }
      return reply.code(202).send({ accepted: await recordEvents(deps, body, caller) })
    },

    getAnalyticsSummary: async () => analyticsSummary(deps.db),
  })
}
