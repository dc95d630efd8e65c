import CheckIcon from '@mui/icons-material/Check'
import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { changeUiLanguage, uiLanguages, type UiLanguage } from '../lib/i18n/index.ts'

/** The interface's languages under the header's button or the side menu's entry (language-menu). */
export function LanguageMenuList({
  id,
  anchor,
  current,
  onClose,
}: {
  id: string
  anchor: HTMLElement | null
  current: UiLanguage
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      slotProps={{ list: { 'aria-label': t('header.chooseLanguage') } }}
    >
      {uiLanguages.map((language) => (
        <MenuItem
          key={language.code}
          lang={language.code}
          selected={language.code === current}
          onClick={() => {
            onClose()
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
  )
}
