import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ErrorObject, ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteHandlerMethod,
} from 'fastify'
import { loadContract } from '@crv/contracts'
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  operations,
} from '@crv/contracts'
import { AppError, errorBody } from './errors.ts'
import { decodeBody } from './encoding.ts'
import { authorize } from './auth.ts'
import type { Access, TokenVerifier } from './auth.ts'

export type OperationId = keyof operations & string

/** Bodies are small JSON unless the contract says otherwise (`x-body-limit`). */
export const DEFAULT_BODY_LIMIT = 64 * 1024

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const
const SHARED_ID = 'openapi.json'

export interface Operation {
  operationId: string
  method: Uppercase<(typeof METHODS)[number]>
  /** The contract's path, e.g. `/api/descriptors/{id}`. */
  path: string
  /** The same path in Fastify's syntax, e.g. `/api/descriptors/:id`. */
  url: string
  tag: string
  access: Access
  bodyLimit: number
  schema: FastifySchema
  /** JSON response schemas by status, for serialisation and response checks. */
  jsonResponses: Record<string, JsonSchema>
}

/** Rewrites `#/components/schemas/X` to the shared schema id and drops `x-` extensions. */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || key === 'example' || key === 'xml' || key === 'externalDocs')
      continue
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      out.$ref = `${SHARED_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`
    } else {
      out[key] = portable(value)
    }
  }
  return out
}

function resolveRef<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const [, section, kind, name] = value.$ref.split('/')
    if (section !== 'components' || !kind || !name)
      throw new Error(`Unsupported $ref ${value.$ref}`)
    const table = (doc.components as unknown as Record<string, Record<string, unknown>>)[kind]
    const target = table?.[name]
    if (!target) throw new Error(`Unresolved $ref ${value.$ref}`)
    return resolveRef(doc, target as T | { $ref: string })
  }
  return value as T
}

function parameterSchema(
  params: OpenApiParameter[],
  where: 'path' | 'query',
): JsonSchema | undefined {
  const selected = params.filter((p) => p.in === where)
  if (selected.length === 0 && where === 'path') return undefined
  return {
    type: 'object',
    properties: Object.fromEntries(selected.map((p) => [p.name, portable(p.schema ?? {})])),
    required: selected.filter((p) => p.required || where === 'path').map((p) => p.name),
    additionalProperties: false,
  }
}

export function sharedSchemas(doc: OpenApiDocument = loadContract()): JsonSchema {
  return { $id: SHARED_ID, $defs: portable(doc.components.schemas) as JsonSchema }
}

/** Every operation of the contract, in the shape routes are registered from. */
export function contractOperations(doc: OpenApiDocument = loadContract()): Operation[] {
  const ops: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item as { parameters?: unknown[] }).parameters ?? []) as (
      OpenApiParameter | { $ref: string }
    )[]
    for (const method of METHODS) {
      const op = item[method] as OpenApiOperation | undefined
      if (!op) continue
      const params = [...shared, ...(op.parameters ?? [])].map((p) =>
        resolveRef<OpenApiParameter>(doc, p),
      )
      const tag = op.tags?.[0]
      const access = op['x-access']
      if (!tag || !access) throw new Error(`${op.operationId} lacks a tag or x-access`)
      const schema: FastifySchema = {}
      const pathSchema = parameterSchema(params, 'path')
      if (pathSchema) schema.params = pathSchema
      schema.querystring = parameterSchema(params, 'query')
      const json = op.requestBody?.content['application/json']?.schema
      if (json) {
        const body = portable(json) as JsonSchema
        schema.body = op.requestBody?.required ? body : { ...body, [OPTIONAL_BODY]: true }
      }
      const jsonResponses: Record<string, JsonSchema> = {}
      for (const [status, raw] of Object.entries(op.responses)) {
        if (!/^[23]\d\d$/.test(status)) continue
        const response = resolveRef<{ content?: Record<string, { schema?: JsonSchema }> }>(doc, raw)
        const media = response.content?.['application/json']?.schema
        if (media) jsonResponses[status] = portable(media) as JsonSchema
      }
      if (Object.keys(jsonResponses).length > 0) schema.response = jsonResponses
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Operation['method'],
        path,
        url: path.replace(/\{([^{}]+)\}/g, ':$1'),
        tag,
        access,
        bodyLimit: op['x-body-limit'] ?? DEFAULT_BODY_LIMIT,
        schema,
        jsonResponses,
      })
    }
  }
  return ops
}

const OPTIONAL_BODY = 'x-optional-body'

function newAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allErrors: false,
    // Unknown fields are refused, never silently dropped.
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
  })
  const addFormats = addFormatsModule as unknown as (a: Ajv2020) => void
  addFormats(ajv)
  for (const name of ['int32', 'int64', 'float', 'double', 'binary', 'password'])
    ajv.addFormat(name, true)
  ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/)
  ajv.addVocabulary(['discriminator'])
  return ajv
}

export interface ContractValidators {
  /** For Fastify's validatorCompiler: bodies strictly typed, params and query coerced from text. */
  compile(
    schema: JsonSchema,
    httpPart: string | undefined,
  ): (data: unknown) => { value?: unknown; error?: Error }
  response(schema: JsonSchema): ValidateFunction
}

export function createValidators(doc: OpenApiDocument = loadContract()): ContractValidators {
  const strict = newAjv(false)
  const coercing = newAjv(true)
  const shared = sharedSchemas(doc)
  strict.addSchema(shared)
  coercing.addSchema(shared)
  const toError = (errors: ErrorObject[] | null | undefined) =>
    Object.assign(new Error(errors?.[0]?.message ?? 'invalid'), { validation: errors ?? [] })
  return {
    compile(schema, httpPart) {
      const optional = schema[OPTIONAL_BODY] === true
      const { [OPTIONAL_BODY]: _marker, ...clean } = schema
      const validate = (httpPart === 'body' ? strict : coercing).compile(clean)
      return (data) => {
        if (optional && data === undefined) return { value: data }
        return validate(data) ? { value: data } : { error: toError(validate.errors) }
      }
    },
    response: (schema) => strict.compile(schema),
  }
}

export type Handlers = Partial<Record<OperationId, RouteHandlerMethod>>

export interface ContractRouteOptions {
  tag: string
  handlers: Handlers
  verify: TokenVerifier
  /** Operations a revoked token may still call (signing out, deleting an account twice). */
  revokedMayCall?: readonly OperationId[]
  validators: ContractValidators
  /** Check JSON responses against the contract (tests and development). */
  validateResponses: boolean
}

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string
    access?: Access
  }
}

/**
 * Registers every operation of one service's tag. An operation without a handler answers 501;
 * a handler without an operation is a start-up error, so code and contract cannot drift.
 */
export function registerContractRoutes(
  app: FastifyInstance,
  options: ContractRouteOptions,
): { implemented: string[]; pending: string[] } {
  const ops = contractOperations().filter((op) => op.tag === options.tag)
  const known = new Set(ops.map((op) => op.operationId))
  const stray = Object.keys(options.handlers).filter((id) => !known.has(id))
  if (stray.length > 0) {
    throw new Error(
      `Handlers without a contract operation in tag ${options.tag}: ${stray.join(', ')}`,
    )
  }
  for (const op of ops) {
    const handler =
      options.handlers[op.operationId as OperationId] ?? notImplemented(op.operationId)
    const checks = options.validateResponses
      ? Object.fromEntries(
          Object.entries(op.jsonResponses).map(([s, schema]) => [
            s,
            options.validators.response(schema),
          ]),
        )
      : undefined
    app.route({
      method: op.method as HTTPMethods,
      url: op.url,
      schema: op.schema,
      bodyLimit: op.bodyLimit,
      config: { operationId: op.operationId, access: op.access },
      onRequest: async (request) =>
        authorize(
          request,
          op.access,
          options.verify,
          options.revokedMayCall?.includes(op.operationId as OperationId),
        ),
      preHandler: async (request) => {
        assertFiniteNumbers(request)
        assertWellFormedText(request)
      },
      ...(checks ? { onSend: responseCheck(checks) } : {}),
      handler,
    })
  }
  const implemented = ops
    .filter((op) => options.handlers[op.operationId as OperationId])
    .map((op) => op.operationId)
  return {
    implemented,
    pending: ops.map((op) => op.operationId).filter((id) => !implemented.includes(id)),
  }
}

/**
 * Ajv's coercion turns a path or query value such as `1e309` into Infinity and lets it past
 * `maximum`; no operation takes an infinite number, so it is refused here by name.
 */
function assertFiniteNumbers(request: FastifyRequest): void {
  for (const [where, values] of [
    ['path', request.params],
    ['query', request.query],
  ] as const) {
    if (!values || typeof values !== 'object') continue
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        throw new AppError(
          'invalid_parameter',
          400,
          `${where} parameter ${name} must be a finite number`,
        )
      }
    }
  }
}

/**
 * Every string an operation takes is well-formed Unicode without NUL: PostgreSQL refuses NUL in
 * text (a 500 from deep in a repository), and a lone surrogate cannot be stored as UTF-8. Decided
 * once here for path, query and JSON body, so no handler has to remember it.
 */
function assertWellFormedText(request: FastifyRequest): void {
  for (const [where, value] of [
    ['path', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const bad = firstIllFormed(value, '')
    if (bad !== null) {
      throw new AppError(
        'invalid_text',
        400,
        `${where} ${bad || 'value'} must be text without NUL characters or unpaired surrogates`,
        [{ in: where, path: bad, message: 'contains a NUL character or an unpaired surrogate' }],
      )
    }
  }
}

/** The JSON-pointer-like path of the first bad string in a parsed value, or null. */
function firstIllFormed(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string')
    return value.includes('\u0000') || !value.isWellFormed() ? path : null
  // Uploads arrive as bytes, not text; contract bodies are never deeper than this.
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 32)
    return null
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}/${key}`
    if (key.includes('\u0000') || !key.isWellFormed()) return at
    const bad = firstIllFormed(child, at, depth + 1)
    if (bad !== null) return bad
  }
  return null
}

function notImplemented(operationId: string): RouteHandlerMethod {
  return async () => {
    throw new AppError('not_implemented', 501, `${operationId} is not available yet`)
  }
}

function responseCheck(checks: Record<string, ValidateFunction>) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const check = checks[String(reply.statusCode)]
    // JSON sent as prepared bytes is checked like JSON the serializer wrote.
    // Only JSON is checked: an operation may also answer CSV or text for the same status.
    const isJson = /json/.test(String(reply.getHeader('content-type') ?? 'application/json'))
    // Prepared bytes may be compressed; what is checked is what the client reads.
    const coding = String(reply.getHeader('content-encoding') ?? '')
    const json = !isJson
      ? undefined
      : typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? decodeBody(payload, coding).toString()
          : undefined
    if (!check || json === undefined) return payload
    const valid = check(JSON.parse(json))
    if (valid) return payload
    request.log.error({ errors: check.errors }, 'response breaks the contract')
    reply.code(500).removeHeader('content-encoding')
    return JSON.stringify(
      errorBody('response_invalid', 'The response broke the API contract', check.errors),
    )
  }
}
