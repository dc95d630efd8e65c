// The popup's page as the callback renders it, run with frontend/public/auth-callback.js in a
// stand-in window: what reaches the opener, and where the page goes without one.
import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { callbackPage } from '../src/oidc/views.ts'
import type { OidcResult } from '../src/oidc/oidc.ts'
import { pageResult } from './oidc-provider.ts'

const script = readFileSync(
  new URL('../../../frontend/public/auth-callback.js', import.meta.url),
  'utf8',
)
const ORIGIN = 'https://crv.example'

function runPage(result: OidcResult, withOpener: boolean) {
  const html = callbackPage(result)
  const raw = /data-result='([^']*)'/.exec(html)?.[1] ?? ''
  const dataset = { result: raw.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(+c)) }
  const opener = withOpener ? { closed: false, postMessage: vi.fn() } : null
  const window = { opener, close: vi.fn() }
  const location = { origin: ORIGIN, replace: vi.fn() }
  runInNewContext(script, { window, document: { body: { dataset } }, location })
  return { html, opener, window, location }
}

describe('the popup callback page', () => {
  it('is a tiny page without inline script', () => {
    const html = callbackPage({ ok: true })
    expect(html).toMatch(
      /^<!doctype html>.*<body data-result='\{"ok":true\}'><script src="\/auth-callback\.js"><\/script><\/body><\/html>\n$/,
    )
    expect(pageResult(html)).toEqual({ ok: true })
  })

  it('tells the opener, on this origin only, and closes', () => {
    const ok = runPage({ ok: true }, true)
    expect(ok.opener?.postMessage).toHaveBeenCalledWith({ type: 'crv-auth', ok: true }, ORIGIN)
    expect(ok.window.close).toHaveBeenCalled()
    expect(ok.location.replace).not.toHaveBeenCalled()

    const failed = runPage({ ok: false, code: 'oidc_denied' }, true)
    expect(failed.opener?.postMessage).toHaveBeenCalledWith(
      { type: 'crv-auth', ok: false, code: 'oidc_denied' },
      ORIGIN,
    )
  })

  it('goes to the app when there is no opener', () => {
    expect(runPage({ ok: true }, false).location.replace).toHaveBeenCalledWith('/')
    expect(
      runPage({ ok: false, code: 'oidc_state_invalid' }, false).location.replace,
    ).toHaveBeenCalledWith('/?authError=oidc_state_invalid')
  })
})
