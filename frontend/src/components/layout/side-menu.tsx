import AccessTimeIcon from '@mui/icons-material/AccessTime'
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings'
import FlashOnIcon from '@mui/icons-material/FlashOn'
import GestureIcon from '@mui/icons-material/Gesture'
import PendingActionsIcon from '@mui/icons-material/PendingActions'
import TranslateIcon from '@mui/icons-material/Translate'
import {
  Box,
  Drawer,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Toolbar,
  Typography,
} from '@mui/material'
import type { ReactElement } from 'react'
import { useSelector } from 'react-redux'
import { Link as RouterLink, useLocation } from 'react-router-dom'
import { paths } from '../../config/paths.ts'
import { selectIsAdmin } from '../../lib/session/session-slice.ts'

type MenuEntry = { label: string; to: string; icon: ReactElement; adminOnly: boolean }

const entries: MenuEntry[] = [
  { label: 'Ideogram Training', to: paths.home, icon: <GestureIcon />, adminOnly: false },
  {
    label: 'Descriptor Training',
    to: paths.descriptorTraining,
    icon: <TranslateIcon />,
    adminOnly: true,
  },
  { label: 'Tachistoscope', to: paths.tachistoscope, icon: <FlashOnIcon />, adminOnly: true },
  { label: 'Sidereal Time', to: paths.siderealTime, icon: <AccessTimeIcon />, adminOnly: false },
  { label: 'Admin Panel', to: paths.adminPanel, icon: <AdminPanelSettingsIcon />, adminOnly: true },
  {
    label: 'Pending Descriptors',
    to: paths.pendingDescriptors,
    icon: <PendingActionsIcon />,
    adminOnly: true,
  },
]

export const sideMenuId = 'side-menu'

export function SideMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const isAdmin = useSelector(selectIsAdmin)
  const { pathname } = useLocation()
  const visible = entries.filter((entry) => isAdmin || !entry.adminOnly)

  return (
    // The drawer is a modal dialog: it needs a name, and a list holds its links in <li>s.
    <Drawer
      id={sideMenuId}
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-label': 'Menu' } }}
    >
      <Box component="nav" aria-label="Main menu" sx={{ width: 280, maxWidth: '85vw' }}>
        <Toolbar>
          <Typography variant="h6" component="p">
            CRV Training
          </Typography>
        </Toolbar>
        <List>
          {visible.map((entry) => {
            const current = pathname === entry.to
            return (
              <ListItem key={entry.to} disablePadding>
                <ListItemButton
                  component={RouterLink}
                  to={entry.to}
                  selected={current}
                  aria-current={current ? 'page' : undefined}
                  onClick={onClose}
                >
                  <ListItemIcon>{entry.icon}</ListItemIcon>
                  <ListItemText primary={entry.label} />
                </ListItemButton>
              </ListItem>
            )
          })}
        </List>
      </Box>
    </Drawer>
  )
}
