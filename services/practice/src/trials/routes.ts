// The trials' handlers: a few lines each, the story is in trials.ts.
import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { TRIAL_RETRY_AFTER_SECONDS, trialsRateLimited } from './trials.ts'
import type { TrialService } from './trials.ts'

export function trialHandlers(trials: TrialService): Handlers {
  return defineHandlers('practice', {
    startPracticeTrial: async ({ request, reply }) => {
      if (!trials.admit(request.ip)) {
        reply.header('retry-after', String(TRIAL_RETRY_AFTER_SECONDS))
        throw trialsRateLimited()
      }
      return reply.code(201).send(await trials.start())
    },

    lockPracticeTrial: ({ body }) => trials.lock(body),

    judgePracticeTrial: ({ body }) => trials.judge(body),
  })
}
