// The contributions' handlers: a few lines each, the story is in contributions.ts.
import { defineHandlers, notFound } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import {
  approve,
  contributionPicture,
  contributionsOfUser,
  moderationQueue,
  reject,
  submitContribution,
  tagSecond,
} from './contributions.ts'
import type { ContributionDeps } from './contributions.ts'
import { contributionView, reviewView } from './views.ts'

type ReviewRow = Parameters<typeof reviewView>[0]

export function contributionHandlers(deps: ContributionDeps): Handlers {
  const reviewFor = (userId: string) => (row: ReviewRow) =>
    reviewView(row, userId, deps.vocabulary.size)
  return defineHandlers('practice', {
    submitPracticeContribution: async ({ body, user, request, reply }) => {
      const row = await submitContribution({ ...deps, log: request.log }, user, body)
      request.log.info({ contribution: row.id }, 'practice contribution received')
      return reply.code(201).send(contributionView(row))
    },

    listMyPracticeContributions: async ({ user }) =>
      (await contributionsOfUser(deps, user.id)).map(contributionView),

    getPracticeContributionImage: async ({ params, reply }) => {
      const found = await contributionPicture(deps, params.key)
      if (!found) throw notFound('Image not found')
      return reply
        .type('image/jpeg')
        .header('content-length', String(found.info.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('etag', found.info.etag)
        .send(found.body)
    },

    listPracticeContributions: async ({ query, user }) =>
      (await moderationQueue(deps, query.status ?? 'pending')).map(reviewFor(user.id)),

    tagPracticeContribution: async ({ params, body, user }) =>
      reviewFor(user.id)(await tagSecond(deps, params.contributionId, user, body.tags)),

    approvePracticeContribution: async ({ params, body, user, request }) => {
      const row = await approve(deps, params.contributionId, user, body, request.log)
      request.log.info({ contribution: row.id, target: row.target_id }, 'contribution approved')
      return reviewFor(user.id)(row)
    },

    rejectPracticeContribution: async ({ params, body, user }) =>
      reviewFor(user.id)(await reject(deps, params.contributionId, user, body.reason)),
  })
}
