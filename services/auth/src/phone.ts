import { randomInt, timingSafeEqual } from 'node:crypto'
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import { AppError, clientKey } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { phoneCodes } from './schema.ts'

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
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`phone:${request.phone}`})), pg_advisory_xact_lock(hashtext(${`ip:${client}`}))`,
    )
    const now = Date.now()
    // Limits count the sends since the number last signed in (within the hour): a person who
    // signs in, out and in again is not held back; someone guessing never signs in.
    const [last] = await tx
      .select({ at: phoneCodes.verifiedAt })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.phone, request.phone), isNotNull(phoneCodes.verifiedAt)))
      .orderBy(desc(phoneCodes.verifiedAt))
      .limit(1)
    const since = new Date(Math.max(now - HOUR, last?.at?.getTime() ?? 0))
    const recent = await tx
      .select({ createdAt: phoneCodes.createdAt })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.phone, request.phone), gt(phoneCodes.createdAt, since)))
      .orderBy(desc(phoneCodes.createdAt))
    const newest = recent[0]?.createdAt.getTime()
    if (newest !== undefined && now - newest < policy.resendCooldownSeconds * 1000) {
      throw phoneErrors.tooMany(
        Math.ceil((newest + policy.resendCooldownSeconds * 1000 - now) / 1000),
      )
    }
    if (recent.length >= policy.sendsPerNumberPerHour) {
      const oldest = recent[recent.length - 1]?.createdAt.getTime() ?? now
      throw phoneErrors.tooMany(Math.ceil((oldest + HOUR - now) / 1000))
    }
    const [fromIp] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(phoneCodes)
      .where(
        and(
          eq(phoneCodes.ip, client),
          gt(phoneCodes.createdAt, new Date(now - HOUR)),
          isNull(phoneCodes.verifiedAt),
        ),
      )
    if ((fromIp?.count ?? 0) >= policy.sendsPerIpPerHour) throw phoneErrors.tooMany(3600)

    const expiresAt = new Date(now + policy.ttlSeconds * 1000)
    await tx
      .update(phoneCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(phoneCodes.phone, request.phone), isNull(phoneCodes.consumedAt)))
    await tx
      .insert(phoneCodes)
      .values({ phone: request.phone, codeHash: request.codeHash, ip: client, expiresAt })
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
    const [current] = await tx
      .select()
      .from(phoneCodes)
      .where(eq(phoneCodes.phone, phone))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1)
      .for('update')
    if (!current) return 'invalid' as const
    if (current.burned) return 'burned' as const
    if (current.consumedAt || current.expiresAt.getTime() <= Date.now()) return 'invalid' as const
    const right = safeEqual(current.codeHash, codeHash)
    if (right) {
      await tx
        .update(phoneCodes)
        .set({ consumedAt: new Date(), verifiedAt: new Date() })
        .where(eq(phoneCodes.id, current.id))
      return 'ok' as const
    }
    const attempts = current.attempts + 1
    const burned = attempts >= policy.maxAttempts
    await tx
      .update(phoneCodes)
      .set({ attempts, burned, ...(burned ? { consumedAt: new Date() } : {}) })
      .where(eq(phoneCodes.id, current.id))
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
