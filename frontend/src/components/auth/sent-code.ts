/**
 * The code the sign-in dialog last had texted, so that going back to the number step (or closing
 * the dialog, or reloading) does not strand the user: the same number again goes straight back
 * to the code step while that code is valid, instead of asking the server for a new one and
 * hearing "Too many attempts" (issue [11] item 6). Kept in the tab's sessionStorage: the number
 * and two times, never the code.
 */
export type SentCode = {
  phone: string
  /** When the code stops working (ms since the epoch). */
  expiresAt: number
  /** When the server will send another (ms since the epoch). */
  resendAt: number
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export const sentCodeKey = 'crv-sign-in-sent-code'

/** '+1 555-000 (12)' and '+155500012' are one number. */
export const samePhone = (a: string, b: string) =>
  a.replace(/[\s().-]/g, '') === b.replace(/[\s().-]/g, '')

export function readSentCode(storage: Store | undefined, now: number): SentCode | null {
  try {
    const parsed = JSON.parse(storage?.getItem(sentCodeKey) ?? 'null') as Partial<SentCode> | null
    if (
      !parsed ||
      typeof parsed.phone !== 'string' ||
      typeof parsed.expiresAt !== 'number' ||
      typeof parsed.resendAt !== 'number'
    ) {
      return null
    }
    return parsed.expiresAt > now ? (parsed as SentCode) : null
  } catch {
    return null
  }
}

export function rememberSentCode(
  storage: Store | undefined,
  phone: string,
  reply: { expiresInSeconds: number; resendAfterSeconds: number },
  now: number,
): SentCode {
  const sent = {
    phone,
    expiresAt: now + reply.expiresInSeconds * 1000,
    resendAt: now + reply.resendAfterSeconds * 1000,
  }
  try {
    storage?.setItem(sentCodeKey, JSON.stringify(sent))
  } catch {
    // Without storage the dialog still works; only a reload forgets the code.
  }
  return sent
}

export function forgetSentCode(storage: Store | undefined): void {
  try {
    storage?.removeItem(sentCodeKey)
  } catch {
    // Nothing to forget.
  }
}

/** The valid code sent to `phone`, if any. */
export function pendingCodeFor(
  storage: Store | undefined,
  phone: string,
  now: number,
): SentCode | null {
  const sent = readSentCode(storage, now)
  return sent && samePhone(sent.phone, phone) ? sent : null
}

/** Whole seconds until another code may be sent (0: now). */
export const secondsUntilResend = (sent: SentCode, now: number) =>
  Math.max(0, Math.ceil((sent.resendAt - now) / 1000))

export function sessionStorageOrNothing(): Storage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}
