export { AppLayout } from './app-layout.tsx'
export { HeaderSlot } from './header-slot.tsx'
export { NavigationPending } from './navigation-pending.tsx'
