import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  type ReactNode,
} from 'react'
import { useAppSelector } from '../store/index.ts'
import { selectSessionStatus } from '../session/session-slice.ts'
import { readWaterFlag, waterReducer, waterStart, writeWaterFlag } from './water-unlock.ts'

export type WaterContextValue = {
  /** Whether the Water gestalt is offered (spec §4, Water unlock). */
  unlocked: boolean
  unlock: () => void
}

const WaterContext = createContext<WaterContextValue | null>(null)

function localStorageOrNothing(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

/** Follows the session into the Water unlock state; mount inside the store provider. */
export function WaterProvider({ children }: { children: ReactNode }) {
  const status = useAppSelector(selectSessionStatus)
  const [water, dispatch] = useReducer(waterReducer, null, () =>
    waterStart(readWaterFlag(localStorageOrNothing())),
  )
  // The session status is an input of the state machine: fold each change in while rendering.
  if (water.status !== status) dispatch({ type: 'authReported', status })

  useEffect(() => {
    if (water.stored) writeWaterFlag(localStorageOrNothing())
  }, [water.stored])

  const unlock = useCallback(() => dispatch({ type: 'unlockRequested' }), [])
  const value = useMemo(() => ({ unlocked: water.unlocked, unlock }), [water.unlocked, unlock])
  return <WaterContext value={value}>{children}</WaterContext>
}

export function useWater(): WaterContextValue {
  const value = use(WaterContext)
  if (!value) throw new Error('useWater must be used inside <WaterProvider>')
  return value
}
