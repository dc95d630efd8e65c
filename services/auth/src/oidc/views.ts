import type { OidcErrorCode, OidcResult } from './oidc.ts'

export function withAuthError(returnTo: string, code: OidcErrorCode): string {
  const url = new URL(returnTo, 'http://return-to.invalid')
  url.searchParams.set('authError', code)
  return `${url.pathname}${url.search}${url.hash}`
}

const attribute = (value: string) => value.replace(/[&'<>]/g, (c) => `&#${c.charCodeAt(0)};`)

/** The popup's page: no inline script (the CSP allows only 'self'); /auth-callback.js reports. */
export function callbackPage(result: OidcResult): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CRV Training</title>' +
    `</head><body data-result='${attribute(JSON.stringify(result))}'>` +
    '<script src="/auth-callback.js"></script></body></html>\n'
  )
}
