import TranslateIcon from '@mui/icons-material/Translate'
import { Box, IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material'
import CheckIcon from '@mui/icons-material/Check'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { changeUiLanguage, currentUiLanguage, uiLanguages } from '../lib/i18n/index.ts'

/** The header's language switch: every interface language, named in itself. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const menuId = useId()
  // Re-rendered by useTranslation on every change of language.
  const current = i18n.resolvedLanguage ? currentUiLanguage() : 'en'
  const currentName = uiLanguages.find((l) => l.code === current)?.name ?? current
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('header.language', { language: currentName })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ flexShrink: 0, gap: 0.5, borderRadius: 2 }}
      >
        <TranslateIcon fontSize="small" />
        <Box
          component="span"
          aria-hidden
          sx={{ fontSize: 13, fontWeight: 600, textTransform: 'uppercase' }}
        >
          {current}
        </Box>
      </IconButton>
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
