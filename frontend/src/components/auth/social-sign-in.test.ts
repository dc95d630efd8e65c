import { describe, expect, it } from 'vitest'
import {
  authMessageOf,
  popupFeatures,
  popupStartUrl,
  redirectStartUrl,
  returnToOf,
} from './social-sign-in.ts'

const origin = 'https://crv.test'

describe('social sign-in', () => {
  it('centres a 500×600 popup over the window', () => {
    expect(popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1300, outerHeight: 900 })).toBe(
      'popup=yes,width=500,height=600,left=500,top=200',
    )
    expect(popupFeatures({ screenX: 0, screenY: 0, outerWidth: 360, outerHeight: 640 })).toBe(
      'popup=yes,width=500,height=600,left=0,top=20',
    )
  })

  it('starts the popup and the redirect at the provider with the current page to return to', () => {
    expect(popupStartUrl()).toBe('/api/auth/oidc/start?mode=popup')
    expect(redirectStartUrl({ pathname: '/descriptors', search: '?stage=2' })).toBe(
      '/api/auth/oidc/start?mode=redirect&returnTo=%2Fdescriptors%3Fstage%3D2',
    )
  })

  it('returns only to paths the contract accepts', () => {
    expect(returnToOf({ pathname: '/admin', search: '' })).toBe('/admin')
    expect(returnToOf({ pathname: '//evil.test', search: '' })).toBe('/')
    expect(returnToOf({ pathname: '/x', search: `?q=${'a'.repeat(600)}` })).toBe('/x')
  })

  it('accepts reports from its own origin with the crv-auth type only', () => {
    expect(authMessageOf({ origin, data: { type: 'crv-auth', ok: true } }, origin)).toEqual({
      kind: 'signedIn',
    })
    expect(
      authMessageOf(
        { origin, data: { type: 'crv-auth', ok: false, code: 'access_denied' } },
        origin,
      ),
    ).toEqual({ kind: 'failed', code: 'access_denied' })
    expect(
      authMessageOf({ origin: 'https://evil.test', data: { type: 'crv-auth', ok: true } }, origin),
    ).toBeNull()
    expect(authMessageOf({ origin, data: { type: 'other', ok: true } }, origin)).toBeNull()
    expect(authMessageOf({ origin, data: 'crv-auth' }, origin)).toBeNull()
    expect(authMessageOf({ origin, data: null }, origin)).toBeNull()
  })
})
