import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material'
import { useId, type ReactNode } from 'react'

type ConfirmDialogProps = {
  open: boolean
  /** The dialog's name: its heading, read out when the focus moves into it. */
  title: string
  /** The question, read out as the dialog's description. */
  children: ReactNode
  /** Form controls shown under the question. */
  extra?: ReactNode
  cancelLabel: string
  confirmLabel: string
  /** The action runs: Cancel, Escape and a click outside do nothing, the confirm button spins. */
  busy?: boolean
  /** A deletion: the confirm button in the error colour. */
  destructive?: boolean
  confirmVariant?: 'contained' | 'outlined' | 'text'
  /** The confirm button waits for something of `extra` (a box ticked). */
  confirmDisabled?: boolean
  /** 'sm' for a question with form controls of some width under it. */
  maxWidth?: 'xs' | 'sm'
  onCancel: () => void
  onConfirm: () => void
}

/**
 * Asks before an action takes effect: a title, the question, Cancel and the action. The focus
 * stays in the dialog while it is open and goes back to what opened it when it closes; Escape
 * cancels (unless the action is under way).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  extra,
  cancelLabel,
  confirmLabel,
  busy = false,
  destructive = false,
  confirmVariant = 'contained',
  confirmDisabled = false,
  maxWidth = 'xs',
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  const titleId = useId()
  const textId = useId()
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth={maxWidth}
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{children}</DialogContentText>
        {extra}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button
          color={destructive ? 'error' : 'primary'}
          variant={confirmVariant}
          disabled={confirmDisabled}
          loading={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
