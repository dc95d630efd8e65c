// The contributions' handlers: a few lines each, the story is in contributions.ts.
import type { FastifyRequest } from 'fastify'
import type { components } from '@crv/contracts'
import { AppError, notFound } from '@crv/kit'
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

type Schemas = components['schemas']

// The contract's x-access puts a user on every route here but the picture's.
const userOf = (request: FastifyRequest) => {
  if (!request.user) throw new AppError('unauthorized', 401, 'Sign-in required')
  return request.user
}

const idOf = (request: FastifyRequest) =>
  (request.params as { contributionId: string }).contributionId

export function contributionHandlers(deps: ContributionDeps): Handlers {
  const review = (request: FastifyRequest) => (row: Parameters<typeof reviewView>[0]) =>
    reviewView(row, userOf(request).id, deps.vocabulary.size)
  return {
    submitPracticeContribution: async (request, reply) => {
      const body = request.body as Schemas['PracticeContributionNew']
      const row = await submitContribution({ ...deps, log: request.log }, userOf(request), body)
      request.log.info({ contribution: row.id }, 'practice contribution received')
      return reply.code(201).send(contributionView(row))
    },

    listMyPracticeContributions: async (request) =>
      (await contributionsOfUser(deps, userOf(request).id)).map(contributionView),

    getPracticeContributionImage: async (request, reply) => {
      const { key } = request.params as { key: string }
      const found = await contributionPicture(deps, key)
      if (!found) throw notFound('Image not found')
      return reply
        .type('image/jpeg')
        .header('content-length', String(found.info.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('etag', found.info.etag)
        .send(found.body)
    },

    listPracticeContributions: async (request) => {
      const { status = 'pending' } = request.query as {
        status?: Schemas['PracticeContributionStatus']
      }
      return (await moderationQueue(deps, status)).map(review(request))
    },

    tagPracticeContribution: async (request) => {
      const { tags } = request.body as Schemas['PracticeContributionTags']
      return review(request)(await tagSecond(deps, idOf(request), userOf(request), tags))
    },

    approvePracticeContribution: async (request) => {
      const body = request.body as Schemas['PracticeContributionApproval']
      const row = await approve(deps, idOf(request), userOf(request), body, request.log)
      request.log.info({ contribution: row.id, target: row.target_id }, 'contribution approved')
      return review(request)(row)
    },

    rejectPracticeContribution: async (request) => {
      const { reason } = request.body as Schemas['PracticeContributionRejection']
      return review(request)(await reject(deps, idOf(request), userOf(request), reason))
    },
  }
}
