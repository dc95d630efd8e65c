import { randomInt, timingSafeEqual } from 'node:crypto'
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { AppError, clientKey } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { Database } from '@crv/kit/db'
import type { AuthConfig } from '../config.ts'
import type { AuthServices } from '../deps.ts'
import { mayReadDevOutbox } from '../dev-outbox.ts'
import type { DevOutboxCaller } from '../dev-outbox.ts'
import { ConsoleSms } from '../sms.ts'
import type { OutboxEntry } from '../sms.ts'
import type { UserRow } from '../db/schema.ts'
import { signInByPhone } from '../users/users.ts'
import {
  lastVerifiedAt,
  latestCodeForUpdate,
  lockSender,
  markVerified,
  recordWrongAttempt,
  replaceCode,
  sendsSince,
  unverifiedSendsFrom,
} from './repository.ts'

type Schemas = components['schemas']

export const phoneErrors = {
  required: () => new AppError('phone_required', 400, 'Please enter a valid phone number'),
  invalid: () =>
    new AppError('invalid_phone', 400, 'Please enter a valid phone number with country code'),
  codeRequired: () => new AppError('code_required', 400, 'Please enter the verification code'),
  invalidCode: () => new AppError('invalid_code', 400, 'Invalid verification code'),
  tooMany: (retryAfterSeconds: number) =>
    new AppError('too_many_attempts', 429, 'Too many attempts. Please try again later', {
      retryAfterSeconds,
    }),
}

/**
 * The number in E.164. It must carry its country code; in production it must be a valid
 * number, elsewhere a possible one is enough (fictional +1 555 numbers for development).
 */
export function normalisePhone(input: string, strict: boolean): string {
  const typed = input.trim()
  if (!typed) throw phoneErrors.required()
  if (!typed.startsWith('+') && !typed.startsWith('00')) throw phoneErrors.invalid()
  const parsed = parsePhoneNumberFromString(typed.replace(/^00/, '+'))
  if (!parsed || !(strict ? parsed.isValid() : parsed.isPossible())) throw phoneErrors.invalid()
  return parsed.number
}

export interface CodePolicy {
  ttlSeconds: number
  maxAttempts: number
  resendCooldownSeconds: number
  sendsPerNumberPerHour: number
  sendsPerIpPerHour: number
}

/** A six-digit code from the CSPRNG. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0')

const HOUR = 3600_000

/**
 * Checks the send limits (cooldown and hourly caps per number and per client: an IPv4 address or
 * an IPv6 /64) and records a new code; earlier codes of the number stop working.
 */
export async function issueCode(
  db: Database,
  policy: CodePolicy,
  request: { phone: string; ip: string; codeHash: string },
): Promise<{ sentAt: Date; expiresAt: Date }> {
  const client = clientKey(request.ip)
  // Checked and counted in one transaction holding locks on the number and the client:
  // checked apart, 30 concurrent starts for one number sent 4 codes past the cooldown.
  return db.transaction(async (tx) => {
    // Always the number first, then the client, so two starts never wait on each other in turn.
    await lockSender(tx, request.phone, client)
    const now = Date.now()
    // Limits count the sends since the number last signed in (within the hour): a person who
    // signs in, out and in again is not held back; someone guessing never signs in.
    const last = await lastVerifiedAt(tx, request.phone)
    const since = new Date(Math.max(now - HOUR, last?.getTime() ?? 0))
    const recent = await sendsSince(tx, request.phone, since)
    const newest = recent[0]?.getTime()
    if (newest !== undefined && now - newest < policy.resendCooldownSeconds * 1000) {
      throw phoneErrors.tooMany(
        Math.ceil((newest + policy.resendCooldownSeconds * 1000 - now) / 1000),
      )
    }
    if (recent.length >= policy.sendsPerNumberPerHour) {
      const oldest = recent[recent.length - 1]?.getTime() ?? now
      throw phoneErrors.tooMany(Math.ceil((oldest + HOUR - now) / 1000))
    }
    const fromIp = await unverifiedSendsFrom(tx, client, new Date(now - HOUR))
    if (fromIp >= policy.sendsPerIpPerHour) throw phoneErrors.tooMany(3600)

    const expiresAt = new Date(now + policy.ttlSeconds * 1000)
    await replaceCode(tx, {
      phone: request.phone,
      codeHash: request.codeHash,
      ip: client,
      expiresAt,
    })
    return { sentAt: new Date(now), expiresAt }
  })
}

/**
 * Spends one attempt on the number's current code. Right: the code is used up and true is
 * returned. Wrong: the attempt is counted, and the code burns at the limit. With no live
 * code: invalid (or too many, when the last one burned).
 */
export async function checkCode(
  db: Database,
  policy: CodePolicy,
  phone: string,
  codeHash: string,
): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const current = await latestCodeForUpdate(tx, phone)
    if (!current) return 'invalid' as const
    if (current.burned) return 'burned' as const
    if (current.consumedAt || current.expiresAt.getTime() <= Date.now()) return 'invalid' as const
    if (safeEqual(current.codeHash, codeHash)) {
      await markVerified(tx, current.id)
      return 'ok' as const
    }
    const attempts = current.attempts + 1
    await recordWrongAttempt(tx, current.id, attempts, attempts >= policy.maxAttempts)
    return 'wrong' as const
  })
  if (outcome === 'ok') return
  if (outcome === 'burned') throw phoneErrors.tooMany(policy.resendCooldownSeconds)
  throw phoneErrors.invalidCode()
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

const strictPhones = (services: AuthServices) => services.config.NODE_ENV === 'production'
const codeHash = (services: AuthServices, phone: string, code: string) =>
  services.keys.hmac(`${phone}:${code}`)

/** Sends a new code to the number, past the bot check and the send limits. */
export async function sendCode(
  services: AuthServices,
  input: Schemas['PhoneStartRequest'],
  ip: string,
): Promise<Schemas['PhoneStartResponse']> {
  const { botCheck, db, policy, sms } = services
  const phone = normalisePhone(input.phone, strictPhones(services))
  await botCheck(input.botCheckToken, ip)
  const code = newCode()
  const { sentAt } = await issueCode(db, policy, {
    phone,
    ip,
    codeHash: codeHash(services, phone, code),
  })
  await sms.send(
    phone,
    `${code} is your CRV Training verification code. It expires in ${Math.round(policy.ttlSeconds / 60)} minutes.`,
  )
  return {
    sentAt: sentAt.toISOString(),
    expiresInSeconds: policy.ttlSeconds,
    resendAfterSeconds: policy.resendCooldownSeconds,
  }
}

/** The account a right code signs in (created on first sign-in; promoted if on the list). */
export async function verifyCode(
  services: AuthServices,
  admins: ReadonlySet<string>,
  input: Schemas['PhoneVerifyRequest'],
): Promise<UserRow> {
  const { db, policy } = services
  const phone = normalisePhone(input.phone, strictPhones(services))
  const code = input.code.trim()
  if (!code) throw phoneErrors.codeRequired()
  await checkCode(db, policy, phone, codeHash(services, phone, code))
  return signInByPhone(db, phone, admins.has(phone))
}

/** The numbers promoted on sign-in (ADMIN_PHONES), in E.164. */
export const adminPhones = (config: AuthConfig): ReadonlySet<string> =>
  new Set(config.ADMIN_PHONES.map((p) => normalisePhone(p, false)))

/**
 * The development SMS outbox, or null where there is none for this caller: never in
 * production, only for the console provider, and only to a caller on this machine that no
 * proxy passed on, or one with the key (dev-outbox.ts).
 */
export function devOutbox(
  services: AuthServices,
  caller: DevOutboxCaller,
  phone: string | undefined,
): OutboxEntry[] | null {
  const { config, sms } = services
  if (
    config.NODE_ENV === 'production' ||
    !(sms instanceof ConsoleSms) ||
    !mayReadDevOutbox(caller, config)
  ) {
    return null
  }
  const wanted = phone ? normalisePhone(phone, false) : null
  // In the order sent, the latest 100 (the contract): the last one of a number works.
  return sms.outbox.filter((m) => !wanted || m.phone === wanted).slice(-100)
}
