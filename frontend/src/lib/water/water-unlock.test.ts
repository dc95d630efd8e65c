import { describe, expect, it } from 'vitest'
import {
  readWaterFlag,
  waterReducer,
  waterStart,
  waterStorageKey,
  writeWaterFlag,
  type WaterEvent,
  type WaterState,
} from './water-unlock.ts'

const run = (state: WaterState, ...events: WaterEvent[]) => events.reduce(waterReducer, state)
const auth = (status: 'restoring' | 'signedIn' | 'signedOut'): WaterEvent => ({
  type: 'authReported',
  status,
})
const unlock: WaterEvent = { type: 'unlockRequested' }

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  }
}

describe('Water unlock', () => {
  it('starts from the stored flag', () => {
    expect(waterStart('true')).toMatchObject({ unlocked: true, stored: true })
    expect(waterStart('false')).toMatchObject({ unlocked: false, stored: false })
    expect(waterStart(null)).toMatchObject({ unlocked: false, stored: false })
  })

  it('keeps the stored flag while the session is being restored', () => {
    expect(run(waterStart('true'), auth('restoring'))).toMatchObject({ unlocked: true })
  })

  it('unlocks and stores the flag as soon as a user is signed in', () => {
    expect(run(waterStart(null), auth('signedIn'))).toMatchObject({ unlocked: true, stored: true })
  })

  it('locks on sign-out but keeps the stored flag', () => {
    const state = run(waterStart(null), auth('signedIn'), auth('signedOut'))
    expect(state).toMatchObject({ unlocked: false, stored: true })
  })

  it('locks a visitor whose browser was unlocked before, once the session is known', () => {
    expect(run(waterStart('true'), auth('signedOut'))).toMatchObject({
      unlocked: false,
      stored: true,
    })
  })

  it('unlocks on an explicit unlock, also while signed out', () => {
    const state = run(waterStart(null), auth('signedOut'), unlock)
    expect(state).toMatchObject({ unlocked: true, stored: true })
  })

  it('does not relock an explicit unlock when the same status is reported again', () => {
    const state = run(waterStart(null), auth('signedOut'), unlock, auth('signedOut'))
    expect(state.unlocked).toBe(true)
  })

  it('reads and writes the flag under crv_water_unlocked', () => {
    const storage = memoryStorage()
    expect(readWaterFlag(storage)).toBeNull()
    writeWaterFlag(storage)
    expect(storage.items.get(waterStorageKey)).toBe('true')
    expect(readWaterFlag(storage)).toBe('true')
  })

  it('treats storage that throws as empty', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
    }
    expect(readWaterFlag(broken)).toBeNull()
    expect(() => writeWaterFlag(broken)).not.toThrow()
    expect(readWaterFlag(undefined)).toBeNull()
  })
})
