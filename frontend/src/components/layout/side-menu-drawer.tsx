import AccessTimeIcon from '@mui/icons-material/AccessTime'
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings'
import DownloadIcon from '@mui/icons-material/Download'
import EditNoteIcon from '@mui/icons-material/EditNote'
import FlashOnIcon from '@mui/icons-material/FlashOn'
import GestureIcon from '@mui/icons-material/Gesture'
import InsightsIcon from '@mui/icons-material/Insights'
import PendingActionsIcon from '@mui/icons-material/PendingActions'
import SettingsIcon from '@mui/icons-material/Settings'
import TranslateIcon from '@mui/icons-material/Translate'
import VisibilityIcon from '@mui/icons-material/Visibility'
import {
  Box,
  Divider,
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
import { useAppSelector } from '../../lib/store/index.ts'
import { Link as RouterLink, useLocation } from 'react-router-dom'
import { useTranslation } from 'react-i18next'
import { paths } from '../../config/paths.ts'
import type common from '../../locales/en/common.json'
import { LanguageMenu } from '../language-menu.tsx'
import { selectIsAdmin, selectIsSignedIn } from '../../lib/session/session-slice.ts'

type MenuLabel = keyof (typeof common)['menu']

/** Who sees an entry: everyone, signed-in users (their own pages), or administrators. */
type Audience = 'everyone' | 'signed-in' | 'admin'
type MenuEntry = { label: MenuLabel; to: string; icon: ReactElement; who: Audience }

// The descriptor trainer is open to everyone with stage gating (the spec's second reading), so
// the sign-in dialog's promise of Stage 2-3 and 4-6 leads somewhere.
const entries: MenuEntry[] = [
  { label: 'ideogram', to: paths.home, icon: <GestureIcon />, who: 'everyone' },
  { label: 'descriptors', to: paths.descriptors, icon: <TranslateIcon />, who: 'everyone' },
  { label: 'tachistoscope', to: paths.tachistoscope, icon: <FlashOnIcon />, who: 'admin' },
  { label: 'siderealTime', to: paths.siderealTime, icon: <AccessTimeIcon />, who: 'everyone' },
  { label: 'practice', to: paths.practice, icon: <VisibilityIcon />, who: 'everyone' },
  { label: 'progress', to: paths.progress, icon: <InsightsIcon />, who: 'signed-in' },
  {
    label: 'customDescriptors',
    to: paths.customDescriptors,
    icon: <EditNoteIcon />,
    who: 'signed-in',
  },
  { label: 'exportData', to: paths.exportData, icon: <DownloadIcon />, who: 'signed-in' },
  { label: 'settings', to: paths.settings, icon: <SettingsIcon />, who: 'signed-in' },
  { label: 'adminPanel', to: paths.adminPanel, icon: <AdminPanelSettingsIcon />, who: 'admin' },
  {
    label: 'pendingDescriptors',
    to: paths.pendingDescriptors,
    icon: <PendingActionsIcon />,
    who: 'admin',
  },
]

/** The side menu's drawer (src/components/layout/side-menu.tsx): loaded when first needed. */
export function SideMenuDrawer({
  id,
  open,
  onClose,
}: {
  id: string
  open: boolean
  onClose: () => void
}) {
  const isAdmin = useAppSelector(selectIsAdmin)
  const signedIn = useAppSelector(selectIsSignedIn)
  const { pathname } = useLocation()
  const { t } = useTranslation()
  const visible = entries.filter(
    (entry) => entry.who === 'everyone' || (entry.who === 'signed-in' ? signedIn : isAdmin),
  )

  return (
    // The drawer is a modal dialog: it needs a name, and a list holds its links in <li>s.
    <Drawer
      id={id}
      open={open}
      onClose={onClose}
      slotProps={{
        paper: { 'aria-label': t('menu.name') },
        // It is first drawn open: it slides in then too, as on every later opening.
        transition: { appear: true },
      }}
    >
      <Box component="nav" aria-label={t('menu.main')} sx={{ width: 280, maxWidth: '85vw' }}>
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
                  <ListItemText primary={t(`menu.${entry.label}`)} />
                </ListItemButton>
              </ListItem>
            )
          })}
        </List>
        <Divider />
        <List>
          <ListItem disablePadding>
            <LanguageMenu variant="list" />
          </ListItem>
        </List>
      </Box>
    </Drawer>
  )
}
