// Handlers typed from the contract: each receives its operation's params, query and body as the
// generated types say, and the caller as the operation's `x-access` says (never null on a `user`
// or `admin` route, since the route's onRequest hook has refused anonymous callers already). A
// service writes no "require the caller" of its own and no `request.* as` casts.
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import { operationMeta } from '@crv/contracts'
import type { operations } from '@crv/contracts'
import type { AuthUser } from './auth.ts'
import type { Handlers, OperationId } from './contract.ts'
import { unauthorized } from './errors.ts'

type Meta = typeof operationMeta
/** The contract's tags that name a service. */
export type ServiceTag = Meta[OperationId]['tag']
/** The operations of one service. */
export type OperationOf<Tag extends ServiceTag> = {
  [Id in OperationId]: Meta[Id]['tag'] extends Tag ? Id : never
}[OperationId]

type Or<T, Fallback> = [T] extends [never] ? Fallback : [T] extends [undefined] ? Fallback : T
type Parameters<Id extends OperationId> = operations[Id]['parameters']
type Empty = Record<string, never>

export type ParamsOf<Id extends OperationId> = Or<NonNullable<Parameters<Id>['path']>, Empty>
export type QueryOf<Id extends OperationId> = Or<NonNullable<Parameters<Id>['query']>, Empty>
type RequestBody<Id extends OperationId> = NonNullable<operations[Id]['requestBody']>
/** The JSON body (undefined when optional and left out); other media types arrive as parsed. */
export type BodyOf<Id extends OperationId> = [RequestBody<Id>] extends [never]
  ? undefined
  : RequestBody<Id> extends { content: { 'application/json': infer Json } }
    ? undefined extends operations[Id]['requestBody']
      ? Json | undefined
      : Json
    : unknown
/** The caller: always there on `user` and `admin` operations, maybe on `public` ones. */
export type CallerOf<Id extends OperationId> = Meta[Id]['access'] extends 'public'
  ? AuthUser | null
  : AuthUser

export interface HandlerContext<Id extends OperationId> {
  params: ParamsOf<Id>
  query: QueryOf<Id>
  body: BodyOf<Id>
  user: CallerOf<Id>
  request: FastifyRequest
  reply: FastifyReply
}

export type ContractHandler<Id extends OperationId> = (context: HandlerContext<Id>) => unknown
export type ContractHandlers<Tag extends ServiceTag> = {
  [Id in OperationOf<Tag>]?: ContractHandler<Id>
}

/**
 * One service's handlers, keyed (and named) by operationId: a key outside the tag's operations
 * is a type error, and at start-up registerContractRoutes refuses it as well.
 */
export function defineHandlers<Tag extends ServiceTag>(
  tag: Tag,
  handlers: ContractHandlers<Tag>,
): Handlers {
  const out: Handlers = {}
  for (const [id, handler] of Object.entries(handlers) as [
    OperationId,
    ContractHandler<OperationId>,
  ][]) {
    const meta = operationMeta[id]
    if (meta.tag !== tag) throw new Error(`${id} is an operation of ${meta.tag}, not ${tag}`)
    const needsCaller = meta.access !== 'public'
    const route: RouteHandlerMethod = async function (request, reply) {
      const user = request.user
      if (needsCaller && !user) throw unauthorized('Sign-in required')
      return handler({
        params: request.params,
        query: request.query,
        body: request.body,
        user,
        request,
        reply,
      } as HandlerContext<OperationId>)
    }
    Object.defineProperty(route, 'name', { value: id })
    out[id] = route
  }
  return out
}
