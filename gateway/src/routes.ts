import { contractOperations } from '@crv/kit'
import type { Operation } from '@crv/kit'
import { SERVICES } from './config.ts'
import type { ServiceName } from './config.ts'

export interface Route {
  operationId: string
  method: Operation['method']
  url: string
  service: ServiceName
  access: Operation['access']
  bodyLimit: number
}

const isService = (tag: string): tag is ServiceName => (SERVICES as readonly string[]).includes(tag)

/**
 * The routing table, derived from the contract: each operation goes to the service its tag
 * names. Operations tagged `gateway` (health) are answered here.
 */
export function routingTable(): Route[] {
  return contractOperations()
    .filter((op) => op.tag !== 'gateway')
    .map((op) => {
      if (!isService(op.tag))
        throw new Error(`Operation ${op.operationId} has unknown owner ${op.tag}`)
      return {
        operationId: op.operationId,
        method: op.method,
        url: op.url,
        service: op.tag,
        access: op.access,
        bodyLimit: op.bodyLimit,
      }
    })
}
