export { AppLayout } from './app-layout.tsx'
export { HeaderSlot } from './header-slot.tsx'
