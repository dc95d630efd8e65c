// The pool health's handler: a few lines, the story is in pool-health.ts.
import type { FastifyRequest } from 'fastify'
import type { Handlers } from '@crv/kit'
import { poolHealth } from './pool-health.ts'
import type { PoolHealthDeps } from './pool-health.ts'

export function poolHealthHandlers(deps: PoolHealthDeps): Handlers {
  return {
    getPracticePoolHealth: async (request: FastifyRequest) => {
      const { poolId } = request.params as { poolId: string }
      return poolHealth(deps, poolId)
    },
  }
}
