import CloseIcon from '@mui/icons-material/Close'
import { IconButton } from '@mui/material'

/** The × in a dialog's top-right corner (its title keeps room for it with `pr: 7`). */
export function DialogCloseButton({ onClick }: { onClick: () => void }) {
  return (
    <IconButton
      aria-label="Close"
      onClick={onClick}
      sx={{ position: 'absolute', right: 8, top: 8 }}
    >
      <CloseIcon />
    </IconButton>
  )
}
