import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material'
import { useId } from 'react'
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
      <DialogTitle id={titleId}>Delete Custom Descriptor</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          Are you sure you want to delete &ldquo;{descriptor?.word}&rdquo;? This action cannot be
          undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={deleting}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={deleting}
          onClick={() => {
            if (descriptor) onConfirm(descriptor)
          }}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  )
}
