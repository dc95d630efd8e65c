import { errorCode, errorMessage } from '../../lib/api/errors.ts'
import type { ToastInput } from '../toast/toast-slice.ts'

/** The sign-in texts of spec §5 and §8. */
export const signInText = {
  phoneRequired: 'Please enter a valid phone number',
  phoneNeedsCountryCode: 'Please enter a valid phone number with country code',
  tooManyAttempts: 'Too many attempts. Please try again later',
  botCheckFailed: 'Please complete the reCAPTCHA verification first',
  sendFailed: 'Failed to send verification code',
  codeRequired: 'Please enter the verification code',
  invalidCode: 'Invalid verification code',
  codeSentTitle: 'Code Sent',
  codeSent: 'Verification code has been sent to your phone',
  codeStillValidTitle: 'Code Already Sent',
  codeStillValid: 'The code we texted you a moment ago still works: enter it below',
  codeExpired: 'That code has expired. Please send a new one',
  verified: 'Phone number verified successfully',
  signOutFailed: 'Failed to sign out. Please try again.',
} as const

// Codes of the auth service (and the gateway's rate limit) mapped to the spec's words.
const textOfCode: Record<string, string> = {
  phone_required: signInText.phoneRequired,
  invalid_phone: signInText.phoneNeedsCountryCode,
  phone_country_code_required: signInText.phoneNeedsCountryCode,
  too_many_attempts: signInText.tooManyAttempts,
  rate_limited: signInText.tooManyAttempts,
  bot_check_failed: signInText.botCheckFailed,
  sms_failed: signInText.sendFailed,
  sms_send_failed: signInText.sendFailed,
  code_required: signInText.codeRequired,
  invalid_code: signInText.invalidCode,
}

export function errorToast(description: string): ToastInput {
  return { title: 'Error', description, variant: 'destructive' }
}

function statusOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'status' in err ? err.status : undefined
}

function failureText(err: unknown, schemaText: string, fallback: string): string {
  const code = errorCode(err)
  if (code !== undefined && code in textOfCode) return textOfCode[code] ?? fallback
  if (statusOf(err) === 429) return signInText.tooManyAttempts
  // A request the contract refuses outright (too long, wrong characters) is the user's input.
  if (code === 'invalid_request') return schemaText
  return errorMessage(err, fallback)
}

/** The toast for a failed 'Send Code' (POST /api/auth/phone/start). */
export function sendCodeFailure(err: unknown): ToastInput {
  return errorToast(failureText(err, signInText.phoneNeedsCountryCode, signInText.sendFailed))
}

/** The toast for a failed 'Verify Code' (POST /api/auth/phone/verify). */
export function verifyCodeFailure(err: unknown): ToastInput {
  return errorToast(failureText(err, signInText.invalidCode, signInText.invalidCode))
}

/** Codes travel in URLs and messages: show only what looks like a code, never arbitrary text. */
export function safeErrorCode(code: unknown): string {
  return typeof code === 'string' && /^[\w.:-]{1,64}$/.test(code) ? code : 'unknown'
}

/** The toast for a failed social sign-in, popup or redirect. */
export function socialFailure(code: unknown): ToastInput {
  return errorToast(`Sign-in error: ${safeErrorCode(code)}`)
}
