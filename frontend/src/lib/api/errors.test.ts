import { describe, expect, it } from 'vitest'
import { errorCode, errorMessage } from './errors.ts'

describe('errorMessage', () => {
  it('reads the message from an API error response', () => {
    const err = {
      status: 409,
      data: { error: { code: 'DUPLICATE_WORD', message: 'This word already exists.' } },
    }
    expect(errorMessage(err, 'Failed to add custom word. Please try again.')).toBe(
      'This word already exists.',
    )
    expect(errorCode(err)).toBe('DUPLICATE_WORD')
  })

  it('falls back when the response is not the API error shape', () => {
    const fallback = 'Failed to load descriptors'
    expect(
      errorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, fallback),
    ).toBe(fallback)
    expect(errorMessage({ status: 502, data: '<html>Bad gateway</html>' }, fallback)).toBe(fallback)
    expect(
      errorMessage({ status: 500, data: { error: { code: 'X', message: '  ' } } }, fallback),
    ).toBe(fallback)
    expect(errorMessage(undefined, fallback)).toBe(fallback)
    expect(errorCode({ message: 'Aborted' })).toBeUndefined()
  })
})
