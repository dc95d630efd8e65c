import { describe, expect, it } from 'vitest'
import {
  forgetSentCode,
  pendingCodeFor,
  readSentCode,
  rememberSentCode,
  samePhone,
  secondsUntilResend,
  sentCodeKey,
} from './sent-code.ts'

function memory() {
  const items = new Map<string, string>()
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    items,
  }
}

const reply = { expiresInSeconds: 300, resendAfterSeconds: 60 }

describe('the code last sent', () => {
  it('is pending for the same number, written any way, until it expires', () => {
    const store = memory()
    rememberSentCode(store, '+1 555 000 1234', reply, 1_000)
    expect(pendingCodeFor(store, '+15550001234', 2_000)?.phone).toBe('+1 555 000 1234')
    expect(pendingCodeFor(store, '+1 (555) 000-1234', 300_999)).not.toBeNull()
    expect(pendingCodeFor(store, '+15550001234', 301_000)).toBeNull()
    expect(pendingCodeFor(store, '+15550009999', 2_000)).toBeNull()
  })

  it('counts the seconds to the next resend', () => {
    const store = memory()
    const sent = rememberSentCode(store, '+15550001234', reply, 0)
    expect(secondsUntilResend(sent, 0)).toBe(60)
    expect(secondsUntilResend(sent, 59_001)).toBe(1)
    expect(secondsUntilResend(sent, 60_000)).toBe(0)
    expect(secondsUntilResend(sent, 90_000)).toBe(0)
  })

  it('keeps no code, survives junk and is forgotten after sign-in', () => {
    const store = memory()
    rememberSentCode(store, '+15550001234', reply, 0)
    expect(Object.keys(JSON.parse(store.items.get(sentCodeKey) ?? '{}')).sort()).toEqual([
      'expiresAt',
      'phone',
      'resendAt',
    ])
    store.setItem(sentCodeKey, '{"phone":1}')
    expect(readSentCode(store, 0)).toBeNull()
    store.setItem(sentCodeKey, 'not json')
    expect(readSentCode(store, 0)).toBeNull()
    rememberSentCode(store, '+15550001234', reply, 0)
    forgetSentCode(store)
    expect(readSentCode(store, 0)).toBeNull()
    expect(readSentCode(undefined, 0)).toBeNull()
  })

  it('treats spaces, dots, dashes and brackets as layout', () => {
    expect(samePhone('+44 (20) 7946.0018', '+442079460018')).toBe(true)
    expect(samePhone('+442079460018', '+442079460019')).toBe(false)
  })
})
