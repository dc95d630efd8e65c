import CloseIcon from '@mui/icons-material/Close'
import { IconButton } from '@mui/material'
import { useTranslation } from 'react-i18next'

/** The × in a dialog's top-right corner (its title keeps room for it with `pr: 7`). */
export function DialogCloseButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation()
  return (
    <IconButton
      aria-label={t('close')}
      onClick={onClick}
      sx={{ position: 'absolute', right: 8, top: 8 }}
    >
      <CloseIcon />
    </IconButton>
  )
}
