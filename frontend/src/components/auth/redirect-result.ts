import { safeErrorCode } from './sign-in-messages.ts'

export type RedirectResult = {
  /** The code of a failed redirect sign-in, or null when the URL reports none. */
  authError: string | null
  /** The same URL without `authError` (path, query and hash), or null when nothing changes. */
  cleanUrl: string | null
}

/**
 * Reads the result a redirect sign-in reports on return (`?authError=<code>`). Only that
 * parameter is removed; the rest of the query is kept exactly as it was written.
 */
export function readRedirectResult(href: string): RedirectResult {
  const url = new URL(href)
  const params = url.search.replace(/^\?/, '').split('&')
  const isAuthError = (param: string) => {
    const name = param.split('=', 1)[0] ?? ''
    try {
      return decodeURIComponent(name.replace(/\+/g, ' ')) === 'authError'
    } catch {
      return false
    }
  }
  const found = params.find(isAuthError)
  if (found === undefined) return { authError: null, cleanUrl: null }

  const kept = params.filter((param) => param !== '' && !isAuthError(param))
  const search = kept.length > 0 ? `?${kept.join('&')}` : ''
  return {
    authError: safeErrorCode(new URLSearchParams(found).get('authError')),
    cleanUrl: url.pathname + search + url.hash,
  }
}
