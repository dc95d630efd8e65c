import { memo } from 'react'
import { lazyPart, useLazyPart } from '../../lib/lazy-part.ts'

export const sideMenuId = 'side-menu'

// The drawer's code (MUI's Drawer, Slide, List…) is loaded when the menu is first opened, or once
// the page is idle: it is no part of a first visit's scripts. Closed, it draws nothing, in the
// pre-rendered page as in the app.
const drawer = lazyPart(() => import('./side-menu-drawer.tsx'))

export const SideMenu = memo(function SideMenu({
  open,
  onClose,
}: {
  open: boolean
  onClose: () => void
}) {
  const Drawer = useLazyPart(drawer, open)
  return Drawer ? <Drawer.SideMenuDrawer id={sideMenuId} open={open} onClose={onClose} /> : null
})
