type ApiErrorBody = { error: { code: string; message: string; details?: unknown } }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    isRecord(value) &&
    isRecord(value.error) &&
    typeof value.error.code === 'string' &&
    typeof value.error.message === 'string'
  )
}

function apiErrorOf(err: unknown): ApiErrorBody['error'] | undefined {
  if (!isRecord(err)) return undefined
  if (isApiErrorBody(err.data)) return err.data.error
  if (isApiErrorBody(err)) return err.error
  return undefined
}

/** The message of an API error body (`{ error: { code, message } }`), else `fallback`. */
export function errorMessage(err: unknown, fallback: string): string {
  const message = apiErrorOf(err)?.message.trim()
  return message ? message : fallback
}

/** The stable code of an API error body, for mapping to the product's own texts. */
export function errorCode(err: unknown): string | undefined {
  return apiErrorOf(err)?.code
}
