import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { Descriptor } from '../../../lib/api/generated.ts'

type ConfirmDeleteDialogProps = {
  /** The word to delete; null closes the dialog. */
  descriptor: Descriptor | null
  deleting: boolean
  onCancel: () => void
  onConfirm: (descriptor: Descriptor) => void
}

/** 'Delete Custom Descriptor': asks before a word of the user's own is deleted for good. */
export function ConfirmDeleteDialog({
  descriptor,
  deleting,
  onCancel,
  onConfirm,
}: ConfirmDeleteDialogProps) {
  const { t } = useTranslation('descriptors')
  const titleId = useId()
  const textId = useId()
  return (
    <Dialog
      open={descriptor !== null}
      onClose={deleting ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{t('confirmDelete.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {t('confirmDelete.text', { word: descriptor?.word ?? '' })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={deleting}>
          {t('cancel')}
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={deleting}
          onClick={() => {
            if (descriptor) onConfirm(descriptor)
          }}
        >
          {t('delete')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
