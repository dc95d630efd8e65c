import { Box } from '@mui/material'
import { useCallback, useRef, useState } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { usePageViews } from '../../lib/analytics/use-page-views.ts'
import { useOutboxSync } from '../../lib/offline/use-outbox-sync.ts'
import { AppHeader } from './app-header.tsx'
import { HeaderSlotProvider } from './header-slot.tsx'
import { useNavigationPending } from './navigation-pending.tsx'
import { SideMenu } from './side-menu.tsx'

export function AppLayout() {
  const location = useLocation()
  const navigating = useNavigationPending()
  usePageViews()
  // What was done offline is sent once the network and a session are back, on any page.
  useOutboxSync()
  // The menu is open for the location it was opened at, so any navigation closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null)
  const menuOpen = menuOpenAt === location.key
  // The slot's element is handed on after the page is taken over, not in the take-over's commit:
  // a state set by a ref there is drawn at once, in the same task.
  const slot = useRef<HTMLDivElement>(null)
  // Stable, so that the header and the menu (memoised) are not drawn again when the header slot
  // is first set, right after the page is taken over.
  const openMenu = useCallback(() => setMenuOpenAt(location.key), [location.key])
  const closeMenu = useCallback(() => setMenuOpenAt(null), [])

  return (
    <HeaderSlotProvider slot={slot}>
      <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
        <AppHeader menuOpen={menuOpen} onMenuClick={openMenu} loading={navigating} slotRef={slot} />
        <SideMenu open={menuOpen} onClose={closeMenu} />
        <Box component="main" sx={{ flexGrow: 1 }}>
          <Outlet />
        </Box>
      </Box>
    </HeaderSlotProvider>
  )
}
