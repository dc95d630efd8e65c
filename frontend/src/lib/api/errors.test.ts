import i18next from 'i18next'
import { afterEach, describe, expect, it } from 'vitest'
import { changeUiLanguage } from '../i18n/i18n.ts'
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

describe('errorMessage in another interface language', () => {
  afterEach(async () => {
    await changeUiLanguage('en', { remember: false })
  })

  it("says the error in the user's language, never the server's English", async () => {
    await changeUiLanguage('de', { remember: false })
    const busy = {
      status: 503,
      data: { error: { code: 'speech_busy', message: 'speech is busy, try again' } },
    }
    const german = i18next.t('common:apiErrors.speech_busy')
    expect(german).not.toBe(i18next.t('common:apiErrors.speech_busy', { lng: 'en' }))
    expect(errorMessage(busy, 'Fehler')).toBe(german)
    // A code the catalogue does not know: the page's own text, already in German.
    const odd = {
      status: 400,
      data: {
        error: {
          code: 'invalid_parameter',
          message: 'query parameter lat must be a finite number',
        },
      },
    }
    expect(errorMessage(odd, 'Die Berechnung ist fehlgeschlagen')).toBe(
      'Die Berechnung ist fehlgeschlagen',
    )
  })

  it('keeps the server message in English, with its specifics', () => {
    const exists = {
      status: 409,
      data: { error: { code: 'descriptor_exists', message: '"wet" is already in this category' } },
    }
    expect(errorMessage(exists, 'Failed')).toBe('"wet" is already in this category')
  })
})
