import { defineHandlers } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { AuthServices } from '../deps.ts'
import { startSession } from '../sessions/replies.ts'
import { beginLogin, completeLogin, OIDC_BROWSER_COOKIE, oidcFlow, safeReturnTo } from './oidc.ts'
import type { LoginTarget } from './oidc.ts'
import { answer, browserId, fail } from './replies.ts'

/**
 * Social sign-in through one OpenID Connect provider (oidc.ts): every failure answers the
 * browser (a page or a redirect with its code), never an error body.
 */
export function oidcRoutes(services: AuthServices): Handlers {
  const { session } = services
  const flow = oidcFlow(services.config, services.db)
  return defineHandlers('auth', {
    startOidcSignIn: async ({ query, request, reply }) => {
      const target = {
        mode: query.mode === 'popup' ? ('popup' as const) : ('redirect' as const),
        returnTo: safeReturnTo(query.returnTo),
      }
      try {
        const url = await beginLogin(flow, target, () =>
          browserId(request, reply, session.secureCookie),
        )
        reply.header('cache-control', 'no-store')
        return reply.redirect(url.href, 302)
      } catch (err) {
        return fail(request, reply, target, err)
      }
    },

    completeOidcSignIn: async ({ query, request, reply }) => {
      const target: LoginTarget = { mode: null, returnTo: '/' }
      try {
        const callback = {
          state: query.state,
          error: query.error,
          browser: request.cookies[OIDC_BROWSER_COOKIE],
          search: new URL(request.url, 'http://callback.invalid').search,
        }
        const user = await completeLogin(flow, callback, target)
        await startSession(session, reply, user)
        return answer(reply, target, { ok: true })
      } catch (err) {
        return fail(request, reply, target, err)
      }
    },
  })
}
