import { describe, expect, it } from 'vitest'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { operationMeta } from '@crv/contracts'
import { contractOperations, defineHandlers } from '../src/index.ts'
import type { AuthUser } from '../src/index.ts'

const reply = {} as FastifyReply
const requestAs = (user: AuthUser | null, parts: Partial<FastifyRequest> = {}) =>
  ({ user, params: {}, query: {}, body: undefined, ...parts }) as FastifyRequest
const viewer: AuthUser = { id: 'u1', role: 'user', name: null, sessionId: null }

describe('handlers typed from the contract', () => {
  it('knows the tag and access of every operation of the contract', () => {
    const ops = contractOperations()
    expect(Object.keys(operationMeta).sort()).toEqual(ops.map((o) => o.operationId).sort())
    for (const op of ops) {
      const meta = operationMeta[op.operationId as keyof typeof operationMeta]
      expect(meta).toEqual({ tag: op.tag, access: op.access })
    }
  })

  it('hands a handler its params, query, body and caller, and names it by its operation', async () => {
    const handlers = defineHandlers('practice', {
      lockPracticeSession: ({ params, user }) => ({ id: params.id, caller: user.id }),
    })
    const route = handlers.lockPracticeSession
    expect(route?.name).toBe('lockPracticeSession')
    const request = requestAs(viewer, { params: { id: 's1' } })
    await expect(
      (route as (r: FastifyRequest, p: FastifyReply) => Promise<unknown>)(request, reply),
    ).resolves.toEqual({ id: 's1', caller: 'u1' })
  })

  it('refuses an anonymous call of an operation that needs a caller, with a 401', async () => {
    const handlers = defineHandlers('practice', { lockPracticeSession: ({ user }) => user.id })
    const route = handlers.lockPracticeSession as (
      r: FastifyRequest,
      p: FastifyReply,
    ) => Promise<unknown>
    await expect(route(requestAs(null), reply)).rejects.toMatchObject({ statusCode: 401 })
  })

  it('lets a public operation be called anonymously', async () => {
    const handlers = defineHandlers('astro', {
      getSiderealTimeAuto: ({ user, query }) => ({ anonymous: user === null, lat: query.lat }),
    })
    const route = handlers.getSiderealTimeAuto as (
      r: FastifyRequest,
      p: FastifyReply,
    ) => Promise<unknown>
    await expect(route(requestAs(null, { query: { lat: 1 } }), reply)).resolves.toEqual({
      anonymous: true,
      lat: 1,
    })
  })

  it("refuses another service's operation at start-up", () => {
    expect(() =>
      defineHandlers('astro', {
        // @ts-expect-error: not an operation of astro
        lockPracticeSession: () => null,
      }),
    ).toThrow(/lockPracticeSession is an operation of practice, not astro/)
  })
})
