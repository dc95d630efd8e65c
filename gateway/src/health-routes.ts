// The gateway's own answers: its liveness (/health, for container probes), and the contract's
// operations tagged `gateway` (the app's readiness and each service's liveness).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { contractOperations, defineHandlers, errorBody } from '@crv/kit'
import type { OperationId } from '@crv/kit'
import { SERVICES } from './config.ts'
import type { ServiceName } from './config.ts'
import { SERVICE_LIVENESS_PATH, createHealthReport } from './health.ts'
import type { Forward } from './proxy.ts'

const isService = (name: string): name is ServiceName =>
  (SERVICES as readonly string[]).includes(name)

export interface HealthRoutesOptions {
  upstreams: Record<ServiceName, string>
  forward: Forward
}

async function healthRoutes(app: FastifyInstance, { upstreams, forward }: HealthRoutesOptions) {
  // Liveness of the gateway process itself (container healthchecks); readiness of the app is
  // /api/health.
  app.get('/health', { logLevel: 'warn', config: { anyHost: true } }, async () => ({
    status: 'ok' as const,
    service: 'gateway',
  }))

  // Contract operations like every other: limited per client. The report is shared (see
  // createHealthReport): asked per request it let a few clients load all six services.
  const healthReport = createHealthReport(upstreams)
  const handlers = defineHandlers('gateway', {
    getHealth: async ({ reply }) => {
      const report = await healthReport()
      return reply
        .code(report.status === 'ok' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(report)
    },
    // Unvalidated here (the gateway checks no schema): an unknown name is a 404.
    getServiceHealth: ({ params, request, reply }) => {
      const name: string = params.service
      if (!isService(name)) {
        return reply.code(404).send(errorBody('not_found', `Unknown service ${name}`))
      }
      return forward(request, reply, upstreams[name], SERVICE_LIVENESS_PATH)
    },
  })
  for (const op of contractOperations().filter((o) => o.tag === 'gateway')) {
    const handler = handlers[op.operationId as OperationId]
    if (!handler) throw new Error(`The gateway has no handler for ${op.operationId}`)
    app.route({ method: op.method, url: op.url, config: { operationId: op.operationId }, handler })
  }
}

export default fp(healthRoutes, { name: 'gateway-health-routes' })
