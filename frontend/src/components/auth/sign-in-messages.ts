import i18next from 'i18next'
import type auth from '../../locales/en/auth.json'
import { errorCode, errorMessage } from '../../lib/api/errors.ts'
import type { ToastInput } from '../../lib/toast/toast-slice.ts'

/** The sign-in texts of spec §5 and §8 (auth.json, `messages`). */
export type SignInMessage = Exclude<
  keyof (typeof auth)['messages'],
  'errorTitle' | 'successTitle' | 'socialFailed'
>

/** A sign-in text in the interface's language, read when the message is shown. */
export function signInText(key: SignInMessage): string {
  return i18next.t(`auth:messages.${key}`)
}

// Codes of the auth service (and the gateway's rate limit) mapped to the spec's words.
const textOfCode: Record<string, SignInMessage> = {
  phone_required: 'phoneRequired',
  invalid_phone: 'phoneNeedsCountryCode',
  phone_country_code_required: 'phoneNeedsCountryCode',
  too_many_attempts: 'tooManyAttempts',
  rate_limited: 'tooManyAttempts',
  bot_check_failed: 'botCheckFailed',
  sms_failed: 'sendFailed',
  sms_send_failed: 'sendFailed',
  code_required: 'codeRequired',
  invalid_code: 'invalidCode',
}

export function errorToast(description: string): ToastInput {
  return { title: i18next.t('auth:messages.errorTitle'), description, variant: 'destructive' }
}

function statusOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'status' in err ? err.status : undefined
}

function failureText(err: unknown, schemaText: SignInMessage, fallback: SignInMessage): string {
  const code = errorCode(err)
  const known = code !== undefined && Object.hasOwn(textOfCode, code) ? textOfCode[code] : undefined
  if (known !== undefined) return signInText(known)
  if (statusOf(err) === 429) return signInText('tooManyAttempts')
  // A request the contract refuses outright (too long, wrong characters) is the user's input.
  if (code === 'invalid_request') return signInText(schemaText)
  return errorMessage(err, signInText(fallback))
}

/** The toast for a failed 'Send Code' (POST /api/auth/phone/start). */
export function sendCodeFailure(err: unknown): ToastInput {
  return errorToast(failureText(err, 'phoneNeedsCountryCode', 'sendFailed'))
}

/** The toast for a failed 'Verify Code' (POST /api/auth/phone/verify). */
export function verifyCodeFailure(err: unknown): ToastInput {
  return errorToast(failureText(err, 'invalidCode', 'invalidCode'))
}

/** Codes travel in URLs and messages: show only what looks like a code, never arbitrary text. */
export function safeErrorCode(code: unknown): string {
  return typeof code === 'string' && /^[\w.:-]{1,64}$/.test(code) ? code : 'unknown'
}

/** The toast for a failed social sign-in, popup or redirect. */
export function socialFailure(code: unknown): ToastInput {
  return errorToast(i18next.t('auth:messages.socialFailed', { code: safeErrorCode(code) }))
}
