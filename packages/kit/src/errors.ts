import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown }
}

/** An error meant for the caller: its code, status and message reach the response as they are. */
export class AppError extends Error {
  readonly code: string
  readonly statusCode: number
  readonly details: unknown

  constructor(code: string, statusCode: number, message: string, details?: unknown) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.statusCode = statusCode
    this.details = details
  }
}

export const errorBody = (code: string, message: string, details?: unknown): ErrorBody => ({
  error: details === undefined ? { code, message } : { code, message, details },
})

export const unauthorized = (message = 'Sign-in required') =>
  new AppError('unauthorized', 401, message)
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError('forbidden', 403, message)
export const notFound = (message = 'Not found') => new AppError('not_found', 404, message)

// Fastify's own errors that are the caller's fault, mapped to stable codes.
const fastifyCodes: Record<string, { code: string; status: number; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    status: 413,
    message: 'Request body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    status: 415,
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_request',
    status: 400,
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_request',
    status: 400,
    message: 'A JSON body is required',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'invalid_request',
    status: 400,
    message: 'The body is not valid JSON',
  },
  FST_ERR_BAD_URL: { code: 'invalid_request', status: 400, message: 'Malformed URL' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'invalid_request', status: 400 },
}

export function toErrorReply(err: FastifyError | AppError | Error): {
  status: number
  body: ErrorBody
  internal: boolean
} {
  if (err instanceof AppError) {
    return {
      status: err.statusCode,
      body: errorBody(err.code, err.message, err.details),
      internal: false,
    }
  }
  const fe = err as FastifyError
  if (fe.validation) {
    const details = fe.validation.map((v) => ({
      in: fe.validationContext ?? 'request',
      path: v.instancePath || '/',
      message: v.message ?? 'is invalid',
      ...(v.params && 'additionalProperty' in v.params
        ? { field: String(v.params.additionalProperty) }
        : {}),
      ...(v.params && 'missingProperty' in v.params
        ? { field: String(v.params.missingProperty) }
        : {}),
    }))
    const first = details[0]
    const where = first ? `${first.in}${first.path === '/' ? '' : first.path}` : 'request'
    const field = first && 'field' in first ? ` (${String(first.field)})` : ''
    return {
      status: 400,
      body: errorBody(
        'invalid_request',
        `Invalid ${where}: ${first?.message ?? 'is invalid'}${field}`,
        details,
      ),
      internal: false,
    }
  }
  const known = fe.code ? fastifyCodes[fe.code] : undefined
  if (known) {
    return {
      status: known.status,
      body: errorBody(known.code, known.message ?? fe.message),
      internal: false,
    }
  }
  const status = fe.statusCode ?? 500
  if (status === 429) {
    return {
      status,
      body: errorBody('rate_limited', 'Too many requests. Please try again later'),
      internal: false,
    }
  }
  if (status >= 400 && status < 500) {
    return { status, body: errorBody('invalid_request', fe.message), internal: false }
  }
  // Internals stay in the log.
  return {
    status: status >= 500 && status < 600 ? status : 500,
    body: errorBody('internal_error', 'Something went wrong on our side. Please try again.'),
    internal: true,
  }
}

/** One error handler and one not-found handler, both answering in the contract's error shape. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, internal } = toErrorReply(err)
    if (internal) request.log.error({ err }, 'request failed')
    else request.log.info({ code: body.error.code, status }, body.error.message)
    if (status === 500 && reply.statusCode >= 500 && reply.statusCode !== 500) {
      return reply.code(reply.statusCode).send(body)
    }
    return reply.code(status).type('application/json; charset=utf-8').send(body)
  })
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(
        errorBody('not_found', `No route for ${request.method} ${request.url.split('?')[0] ?? ''}`),
      )
  })
}
