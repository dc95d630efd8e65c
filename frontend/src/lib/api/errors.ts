import i18next from 'i18next'

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

/**
 * What to tell the user of a failed call. In English, the server's own message (the spec's
 * texts, with specifics such as the word or the size). In another interface language, the
 * catalogue's translation of the error's code (`common:apiErrors`), else `fallback`, the page's
 * own text for what failed, already in that language: never the server's English.
 */
export function errorMessage(err: unknown, fallback: string): string {
  const error = apiErrorOf(err)
  if (!error) return fallback
  const language = i18next.resolvedLanguage ?? i18next.language ?? 'en'
  if (language.startsWith('en')) return error.message.trim() || fallback
  const key = `common:apiErrors.${error.code}`
  return i18next.exists(key) ? i18next.t(key as 'common:errors.notSignedIn') : fallback
}

/** The stable code of an API error body, for mapping to the product's own texts. */
export function errorCode(err: unknown): string | undefined {
  return apiErrorOf(err)?.code
}
