import {
  createContext,
  startTransition,
  use,
  useEffect,
  useState,
  type ReactNode,
  type RefObject,
} from 'react'
import { createPortal } from 'react-dom'

export const HeaderSlotContext = createContext<HTMLElement | null>(null)

/** Renders page-specific controls (e.g. the ideogram play button) inside the shared header. */
export function HeaderSlot({ children }: { children: ReactNode }) {
  const target = use(HeaderSlotContext)
  return target ? createPortal(children, target) : null
}

/**
 * Hands the header slot's element to the pages below once the layout is committed. The state
 * lives here, not in the layout, so that setting it redraws only the slot's users: `children`
 * is the same element as before, and React leaves it as it is (in the layout, setting it drew the
 * whole page again, a 150 ms task on a phone right after the take-over; issue [12]).
 */
export function HeaderSlotProvider({
  slot,
  children,
}: {
  slot: RefObject<HTMLElement | null>
  children: ReactNode
}) {
  const [target, setTarget] = useState<HTMLElement | null>(null)
  useEffect(() => {
    // A transition: what pages put in the slot is drawn in slices.
    const later = setTimeout(() => startTransition(() => setTarget(slot.current)), 0)
    return () => clearTimeout(later)
  }, [slot])
  return <HeaderSlotContext value={target}>{children}</HeaderSlotContext>
}
