import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Deps } from '../deps.ts'
import { answerReviews, reviewQueue, reviewStats } from './reviews.ts'

export function reviewRoutes(deps: Deps): Handlers {
  return defineHandlers('descriptors', {
    getReviewQueue: async ({ body, user }) => reviewQueue(deps, body, user),
    answerReviews: async ({ body, user }) => answerReviews(deps, body.answers, user),
    getReviewStats: async ({ query, user }) => reviewStats(deps, query, user),
  })
}
