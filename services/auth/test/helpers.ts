import { randomInt } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { createApp } from '@crv/kit'
import { testDatabaseUrl, testEnv } from '@crv/kit/testing'
import authApp from '../src/app.ts'
import type { AuthAppOptions } from '../src/app.ts'
import { loadAuthConfig } from '../src/config.ts'
import { ConsoleSms } from '../src/sms.ts'

/** The auth app as it runs, verifying the tokens it issues with its own keys. */
export async function authService(
  env: Record<string, string> = {},
  options: Partial<AuthAppOptions> = {},
) {
  const config = loadAuthConfig(
    testEnv({ DATABASE_URL: testDatabaseUrl(), ADMIN_PHONES: '+15550000001', ...env }),
  )
  const app = createApp(config)
  await app.register(authApp, { config, ...options })
  await app.ready()
  return app
}

/** A fresh fictional number per test, so tests never share limits or users. */
export const newPhone = () => `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`

export function outboxCode(app: FastifyInstance, phone: string): string {
  const sms = app.auth.sms
  if (!(sms instanceof ConsoleSms)) throw new Error('not the console provider')
  const entry = sms.outbox.filter((m) => m.phone === phone).at(-1)
  if (!entry) throw new Error(`no code sent to ${phone}`)
  return entry.code
}

/** A POST from its own client address (the per-IP send limit is shared otherwise). */
export const post = (
  app: FastifyInstance,
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
  ip = randomIp(),
) =>
  app.inject({ method: 'POST', url, headers, remoteAddress: ip, ...(payload ? { payload } : {}) })

export function refreshCookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === 'crv_refresh')?.value
}

/** Phone sign-in end to end: start, read the code, verify. */
export async function signIn(app: FastifyInstance, phone = newPhone()) {
  const start = await post(app, '/api/auth/phone/start', { phone })
  if (start.statusCode !== 202) throw new Error(`start: ${start.statusCode} ${start.body}`)
  const res = await post(app, '/api/auth/phone/verify', { phone, code: outboxCode(app, phone) })
  if (res.statusCode !== 200) throw new Error(`verify: ${res.statusCode} ${res.body}`)
  return {
    phone,
    accessToken: res.json().accessToken as string,
    user: res.json().user,
    cookie: refreshCookieOf(res) ?? '',
  }
}

export const randomIp = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`
