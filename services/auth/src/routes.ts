import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Handlers } from '@crv/kit'
import { AppError } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { AuthServices } from './app.ts'
import { checkCode, issueCode, newCode, normalisePhone, phoneErrors } from './phone.ts'
import { endSession, refreshSession, startSession } from './sessions.ts'
import { findUser, signInByPhone, toApiUser } from './users.ts'
import { ConsoleSms } from './sms.ts'
import { mayReadDevOutbox } from './dev-outbox.ts'
import { oidcHandlers } from './oidc.ts'
import { accountHandlers } from './account.ts'

type Body<N extends keyof components['schemas']> = components['schemas'][N]

export function authHandlers(services: AuthServices): Handlers {
  const { config, db, keys, sms, botCheck, session, policy } = services
  const strictPhones = config.NODE_ENV === 'production'
  const admins = new Set(config.ADMIN_PHONES.map((p) => normalisePhone(p, false)))
  const codeHash = (phone: string, code: string) => keys.hmac(`${phone}:${code}`)

  return {
    startPhoneSignIn: async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as Body<'PhoneStartRequest'>
      const phone = normalisePhone(body.phone, strictPhones)
      await botCheck(body.botCheckToken, request.ip)
      const code = newCode()
      const { sentAt } = await issueCode(db, policy, {
        phone,
        ip: request.ip,
        codeHash: codeHash(phone, code),
      })
      await sms.send(
        phone,
        `${code} is your CRV Training verification code. It expires in ${Math.round(policy.ttlSeconds / 60)} minutes.`,
      )
      return reply.code(202).send({
        sentAt: sentAt.toISOString(),
        expiresInSeconds: policy.ttlSeconds,
        resendAfterSeconds: policy.resendCooldownSeconds,
      })
    },

    verifyPhoneCode: async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as Body<'PhoneVerifyRequest'>
      const phone = normalisePhone(body.phone, strictPhones)
      const code = body.code.trim()
      if (!code) throw phoneErrors.codeRequired()
      await checkCode(db, policy, phone, codeHash(phone, code))
      const user = await signInByPhone(db, phone, admins.has(phone))
      return startSession(session, reply, user)
    },

    refreshSession: async (request: FastifyRequest, reply: FastifyReply) =>
      refreshSession(session, request, reply),

    signOut: async (request: FastifyRequest, reply: FastifyReply) => {
      await endSession(session, request, reply)
      return reply.code(204).send()
    },

    getCurrentUser: async (request: FastifyRequest) => {
      const user = request.user ? await findUser(db, request.user.id) : null
      if (!user) throw new AppError('account_not_found', 401, 'This account no longer exists')
      return toApiUser(user)
    },

    getSignInOptions: async () => {
      const social = Boolean(config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET)
      const google =
        !config.OIDC_ISSUER || new URL(config.OIDC_ISSUER).hostname === 'accounts.google.com'
      return {
        socialSignIn: {
          enabled: social,
          providerName: social
            ? (config.OIDC_PROVIDER_NAME ?? (google ? 'Google' : 'your account'))
            : null,
        },
        botCheck: {
          kind: config.BOT_CHECK,
          siteKey: config.BOT_CHECK === 'none' ? null : (config.BOT_CHECK_SITE_KEY ?? null),
        },
      }
    },

    getJwks: async (_request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'public, max-age=300')
      return keys.jwks
    },

    listDevSmsOutbox: async (request: FastifyRequest, reply: FastifyReply) => {
      // A development aid only: never in production, only for the console provider, and only to
      // a caller on this machine that no proxy passed on, or one with the key (dev-outbox.ts).
      if (
        config.NODE_ENV === 'production' ||
        !(sms instanceof ConsoleSms) ||
        !mayReadDevOutbox(request, config)
      ) {
        return reply.code(404).send({ error: { code: 'not_found', message: 'No SMS outbox here' } })
      }
      const { phone } = request.query as { phone?: string }
      const wanted = phone ? normalisePhone(phone, false) : null
      // In the order sent, the latest 100 (the contract): the last one of a number works.
      return sms.outbox.filter((m) => !wanted || m.phone === wanted).slice(-100)
    },

    ...oidcHandlers(services),
    ...accountHandlers(services),
  }
}
