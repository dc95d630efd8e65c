// How the sign-in flow answers the browser: its cookie, and the redirect or popup page.
import type { FastifyReply, FastifyRequest } from 'fastify'
import {
  browserIdOf,
  failureCode,
  fromProvider,
  OIDC_BROWSER_COOKIE,
  OIDC_LOGIN_TTL_SECONDS,
  safeReturnTo,
} from './oidc.ts'
import type { LoginTarget, OidcResult } from './oidc.ts'
import { callbackPage, withAuthError } from './views.ts'

const cookieOptions = (secure: boolean) => ({
  httpOnly: true,
  // Lax: the provider sends the browser back with a top-level GET from its own site.
  sameSite: 'lax' as const,
  secure,
  path: '/api/auth/oidc',
})

/** This browser's id (kept across logins, so two logins at once in one browser both work). */
export function browserId(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const id = browserIdOf(request.cookies[OIDC_BROWSER_COOKIE])
  reply.setCookie(OIDC_BROWSER_COOKIE, id, {
    ...cookieOptions(secure),
    maxAge: OIDC_LOGIN_TTL_SECONDS,
  })
  return id
}

export function answer(reply: FastifyReply, target: LoginTarget, result: OidcResult) {
  reply.header('cache-control', 'no-store')
  if (target.mode === 'redirect') {
    // Checked again on the way out: a login stored before a fix must not redirect off-site.
    const returnTo = target.returnTo
    const to = safeReturnTo(result.ok ? returnTo : withAuthError(returnTo, result.code))
    return reply.redirect(to, 302)
  }
  // Popup mode, or a callback whose login is unknown: the page also works without an opener.
  // The popup arrives here from the provider's site; any stricter opener policy would make
  // the browser cut the popup off from the window that opened it.
  return reply
    .code(200)
    .header('cross-origin-opener-policy', 'unsafe-none')
    .type('text/html; charset=utf-8')
    .send(callbackPage(result))
}

export function fail(
  request: FastifyRequest,
  reply: FastifyReply,
  target: LoginTarget,
  err: unknown,
) {
  const code = failureCode(err)
  // The provider's answers and the user's doing are warnings; anything else is our fault.
  const level = code === 'oidc_failed' && !fromProvider(err) ? 'error' : 'warn'
  request.log[level]({ err, code }, 'OpenID Connect sign-in failed')
  return answer(reply, target, { ok: false, code })
}
