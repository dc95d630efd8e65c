import { describe, expect, it } from 'vitest'
import {
  safeErrorCode,
  sendCodeFailure,
  socialFailure,
  verifyCodeFailure,
} from './sign-in-messages.ts'

const apiError = (status: number, code: string, message = 'Server says no') => ({
  status,
  data: { error: { code, message } },
})

describe('sign-in messages', () => {
  it.each([
    ['phone_required', 'Please enter a valid phone number'],
    ['invalid_phone', 'Please enter a valid phone number with country code'],
    ['phone_country_code_required', 'Please enter a valid phone number with country code'],
    ['bot_check_failed', 'Please complete the reCAPTCHA verification first'],
    ['sms_failed', 'Failed to send verification code'],
    ['sms_send_failed', 'Failed to send verification code'],
    ['invalid_request', 'Please enter a valid phone number with country code'],
  ])('says what a failed send with %s means', (code, text) => {
    expect(sendCodeFailure(apiError(400, code))).toEqual({
      title: 'Error',
      description: text,
      variant: 'destructive',
    })
  })

  it('tells the user to wait when the sends are capped, whatever the code', () => {
    expect(sendCodeFailure(apiError(429, 'too_many_attempts')).description).toBe(
      'Too many attempts. Please try again later',
    )
    expect(sendCodeFailure(apiError(429, 'rate_limited')).description).toBe(
      'Too many attempts. Please try again later',
    )
    expect(sendCodeFailure({ status: 429, data: null }).description).toBe(
      'Too many attempts. Please try again later',
    )
  })

  it("shows the server's message for other send failures, else the spec's fallback", () => {
    expect(sendCodeFailure(apiError(503, 'unavailable', 'Sign-in is down')).description).toBe(
      'Sign-in is down',
    )
    expect(sendCodeFailure({ status: 'FETCH_ERROR', error: 'offline' }).description).toBe(
      'Failed to send verification code',
    )
  })

  it('maps verify failures to the spec texts', () => {
    expect(verifyCodeFailure(apiError(400, 'invalid_code')).description).toBe(
      'Invalid verification code',
    )
    expect(verifyCodeFailure(apiError(400, 'code_required')).description).toBe(
      'Please enter the verification code',
    )
    expect(verifyCodeFailure(apiError(400, 'invalid_request')).description).toBe(
      'Invalid verification code',
    )
    expect(verifyCodeFailure(apiError(429, 'too_many_attempts')).description).toBe(
      'Too many attempts. Please try again later',
    )
    expect(verifyCodeFailure({ status: 'FETCH_ERROR', error: 'offline' }).description).toBe(
      'Invalid verification code',
    )
  })

  it('names the code of a failed social sign-in but never echoes arbitrary text', () => {
    expect(socialFailure('access_denied').description).toBe('Sign-in error: access_denied')
    expect(socialFailure('Call +1 555 0100 to restore access').description).toBe(
      'Sign-in error: unknown',
    )
    expect(safeErrorCode(undefined)).toBe('unknown')
    expect(safeErrorCode('x'.repeat(65))).toBe('unknown')
  })
})
