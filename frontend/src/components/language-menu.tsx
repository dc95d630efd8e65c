import CheckIcon from '@mui/icons-material/Check'
import TranslateIcon from '@mui/icons-material/Translate'
import {
  IconButton,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
} from '@mui/material'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { changeUiLanguage, currentUiLanguage, uiLanguages } from '../lib/i18n/index.ts'
import { Tip } from './tip.tsx'

/**
 * The interface's languages, each named in itself: an icon button in the header (from tablet
 * width up) or an entry of the side menu (where a phone finds it).
 */
export function LanguageMenu({ variant }: { variant: 'icon' | 'list' }) {
  const { t, i18n } = useTranslation()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  // useTranslation renders this again on every change of language.
  const current = i18n.resolvedLanguage ? currentUiLanguage() : 'en'
  const name = uiLanguages.find((l) => l.code === current)?.name ?? current
  const label = t('header.language', { language: name })
  const opener = {
    'aria-haspopup': 'menu' as const,
    'aria-controls': anchor ? menuId : undefined,
    'aria-expanded': anchor ? true : undefined,
    onClick: (e: React.MouseEvent<HTMLElement>) => setAnchor(e.currentTarget),
  }
  return (
    <>
      {variant === 'icon' ? (
        <Tip title={label}>
          <IconButton
            color="inherit"
            aria-label={label}
            {...opener}
            sx={{ flexShrink: 0, display: { xs: 'none', sm: 'inline-flex' } }}
          >
            <TranslateIcon />
          </IconButton>
        </Tip>
      ) : (
        <ListItemButton {...opener}>
          <ListItemIcon>
            <TranslateIcon />
          </ListItemIcon>
          <ListItemText primary={label} />
        </ListItemButton>
      )}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': t('header.chooseLanguage') } }}
      >
        {uiLanguages.map((language) => (
          <MenuItem
            key={language.code}
            lang={language.code}
            selected={language.code === current}
            onClick={() => {
              setAnchor(null)
              void changeUiLanguage(language.code)
            }}
          >
            <ListItemIcon>
              {language.code === current ? <CheckIcon fontSize="small" /> : null}
            </ListItemIcon>
            <ListItemText>{language.name}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}
