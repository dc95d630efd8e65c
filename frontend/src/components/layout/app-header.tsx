import { memo } from 'react'
import MenuIcon from '@mui/icons-material/Menu'
import { AppBar, Box, IconButton, LinearProgress, Toolbar, Typography } from '@mui/material'
import type { Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../config/paths.ts'
import { LanguageMenu } from '../language-menu.tsx'
import { SignInControl } from '../sign-in-control.tsx'
import { sideMenuId } from './side-menu.tsx'

type AppHeaderProps = {
  menuOpen: boolean
  onMenuClick: () => void
  loading: boolean
  slotRef: Ref<HTMLDivElement>
}

export const AppHeader = memo(function AppHeader({
  menuOpen,
  onMenuClick,
  loading,
  slotRef,
}: AppHeaderProps) {
  const { t } = useTranslation()
  return (
    <AppBar position="sticky" elevation={0}>
      <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
        <IconButton
          edge="start"
          color="inherit"
          aria-label={t('header.openMenu')}
          aria-controls={sideMenuId}
          aria-expanded={menuOpen}
          onClick={onMenuClick}
        >
          <MenuIcon />
        </IconButton>
        <Typography
          variant="h6"
          component={RouterLink}
          to={paths.home}
          noWrap
          sx={{
            color: 'inherit',
            textDecoration: 'none',
            fontWeight: 600,
            flexShrink: 0,
            display: 'inline-flex',
            alignItems: 'center',
            minHeight: 44,
          }}
        >
          CRV Training
        </Typography>
        <Box
          ref={slotRef}
          sx={{ flexGrow: 1, display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}
        />
        <LanguageMenu variant="icon" />
        <SignInControl />
      </Toolbar>
      {loading ? (
        <LinearProgress
          color="inherit"
          aria-label={t('header.loadingPage')}
          sx={{ position: 'absolute', bottom: 0, left: 0, right: 0, height: 2 }}
        />
      ) : null}
    </AppBar>
  )
})
