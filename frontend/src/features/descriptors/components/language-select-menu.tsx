import { Menu, MenuItem } from '@mui/material'
import { Flag } from '../../../components/flag.tsx'
import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import { trainingLanguages } from '../languages.ts'
import { useLanguageName } from '../use-language-name.ts'

/**
 * The trainer's languages as a list under the closed select (language-select.tsx), as MUI's
 * Select draws it: the chosen one focused, the arrow keys move, Enter chooses, Escape closes, and
 * the focus goes back to the select. Loaded when first opened, or once the page is idle.
 */
export function LanguageSelectMenu({
  anchor,
  open,
  value,
  listId,
  labelId,
  onChoose,
  onClose,
}: {
  anchor: HTMLElement | null
  open: boolean
  value: TrainingLanguage
  listId: string
  labelId: string
  onChoose: (language: TrainingLanguage) => void
  onClose: () => void
}) {
  const languageName = useLanguageName()
  return (
    <Menu
      anchorEl={anchor}
      open={open && anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      transformOrigin={{ vertical: 'top', horizontal: 'center' }}
      slotProps={{
        list: { id: listId, role: 'listbox', 'aria-labelledby': labelId, disableListWrap: true },
        paper: { sx: { minWidth: anchor?.clientWidth } },
      }}
    >
      {trainingLanguages.map((language) => {
        const { name, lang } = languageName(language)
        const selected = language.code === value
        return (
          <MenuItem
            key={language.code}
            role="option"
            aria-selected={selected}
            selected={selected}
            lang={lang}
            onClick={() => onChoose(language.code)}
          >
            <Flag code={language.code} />
            &nbsp;{name}
          </MenuItem>
        )
      })}
    </Menu>
  )
}
