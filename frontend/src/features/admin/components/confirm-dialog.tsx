import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material'
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

type ConfirmDialogProps = {
  open: boolean
  title: string
  children: ReactNode
  /** Form controls shown under the question. */
  extra?: ReactNode
  confirmLabel: string
  busy: boolean
  destructive?: boolean
  onCancel: () => void
  onConfirm: () => void
}

/** Asks before an administrator's action takes effect. */
export function ConfirmDialog({
  open,
  title,
  children,
  extra,
  confirmLabel,
  busy,
  destructive = false,
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation('admin')
  const titleId = useId()
  const textId = useId()
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{children}</DialogContentText>
        {extra}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {t('confirmDialog.cancel')}
        </Button>
        <Button
          color={destructive ? 'error' : 'primary'}
          variant="contained"
          loading={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
