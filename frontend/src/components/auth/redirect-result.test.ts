import { describe, expect, it } from 'vitest'
import { readRedirectResult } from './redirect-result.ts'

describe('redirect sign-in result', () => {
  it('reports nothing and changes nothing without authError', () => {
    expect(readRedirectResult('https://crv.test/admin?tab=1#top')).toEqual({
      authError: null,
      cleanUrl: null,
    })
  })

  it('reads the code and removes only that parameter', () => {
    expect(
      readRedirectResult(
        'https://crv.test/descriptors?stage=2%2D3&authError=access_denied&x=a+b#t',
      ),
    ).toEqual({ authError: 'access_denied', cleanUrl: '/descriptors?stage=2%2D3&x=a+b#t' })
  })

  it('drops the question mark when authError was the only parameter', () => {
    expect(readRedirectResult('https://crv.test/?authError=state_mismatch')).toEqual({
      authError: 'state_mismatch',
      cleanUrl: '/',
    })
  })

  it('does not show arbitrary text passed as the code', () => {
    const href = `https://crv.test/?authError=${encodeURIComponent('Your account is locked, call us')}`
    expect(readRedirectResult(href).authError).toBe('unknown')
    expect(readRedirectResult('https://crv.test/?authError=').authError).toBe('unknown')
  })
})
