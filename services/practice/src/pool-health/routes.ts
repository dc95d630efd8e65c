// The pool health's handler: a few lines, the story is in pool-health.ts.
import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import { poolHealth } from './pool-health.ts'
import type { PoolHealthDeps } from './pool-health.ts'

export function poolHealthHandlers(deps: PoolHealthDeps): Handlers {
  return defineHandlers('practice', {
    getPracticePoolHealth: ({ params }) => poolHealth(deps, params.poolId),
  })
}
