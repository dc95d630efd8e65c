import { createContext, use, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

export const HeaderSlotContext = createContext<HTMLElement | null>(null)

/** Renders page-specific controls (e.g. the ideogram play button) inside the shared header. */
export function HeaderSlot({ children }: { children: ReactNode }) {
  const target = use(HeaderSlotContext)
  return target ? createPortal(children, target) : null
}
