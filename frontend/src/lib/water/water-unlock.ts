import type { SessionStatus } from '../session/session-slice.ts'

/** The browser-stored flag of spec §3: 'true' once Water has been unlocked on this browser. */
export const waterStorageKey = 'crv_water_unlocked'

/**
 * Spec §4, Water unlock. `unlocked` is what the page shows; `stored` is what the browser keeps,
 * which a sign-out does not clear.
 */
export type WaterState = { unlocked: boolean; stored: boolean; status: SessionStatus }

export type WaterEvent =
  { type: 'authReported'; status: SessionStatus } | { type: 'unlockRequested' }

export function waterStart(storedFlag: string | null): WaterState {
  const stored = storedFlag === 'true'
  return { unlocked: stored, stored, status: 'restoring' }
}

export function waterReducer(state: WaterState, event: WaterEvent): WaterState {
  switch (event.type) {
    case 'authReported':
      if (event.status === state.status) return state
      // Restoring reports nothing yet: the stored flag stands until the session is known.
      if (event.status === 'restoring') return { ...state, status: event.status }
      if (event.status === 'signedIn') return { unlocked: true, stored: true, status: event.status }
      return { ...state, unlocked: false, status: event.status }
    case 'unlockRequested':
      return { ...state, unlocked: true, stored: true }
  }
}

/** Reads the stored flag; storage may be unavailable (private modes, blocked cookies). */
export function readWaterFlag(storage: Pick<Storage, 'getItem'> | undefined): string | null {
  try {
    return storage?.getItem(waterStorageKey) ?? null
  } catch {
    return null
  }
}

export function writeWaterFlag(storage: Pick<Storage, 'setItem'> | undefined): void {
  try {
    storage?.setItem(waterStorageKey, 'true')
  } catch {
    // The unlock still holds for this visit.
  }
}
