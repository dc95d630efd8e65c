import TranslateIcon from '@mui/icons-material/Translate'
import { IconButton, ListItemButton, ListItemIcon, ListItemText } from '@mui/material'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { currentUiLanguage, uiLanguages } from '../lib/i18n/index.ts'
import { lazyPart, useLazyPart } from '../lib/lazy-part.ts'
import { Tip } from './tip.tsx'

// The list (MUI's Menu with its Popover, Modal and focus trap) is loaded when first opened, or
// once the page is idle: no first screen draws it.
const list = lazyPart(() => import('./language-menu-list.tsx'))

/**
 * The interface's languages, each named in itself: an icon button in the header (from tablet
 * width up) or an entry of the side menu (where a phone finds it).
 */
export function LanguageMenu({ variant }: { variant: 'icon' | 'list' }) {
  const { t, i18n } = useTranslation()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  const List = useLazyPart(list, anchor !== null)?.LanguageMenuList
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
      {List ? (
        <List id={menuId} anchor={anchor} current={current} onClose={() => setAnchor(null)} />
      ) : null}
    </>
  )
}
