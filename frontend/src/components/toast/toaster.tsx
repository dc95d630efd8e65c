import { Alert, AlertTitle, Snackbar, type AlertColor } from '@mui/material'
import { useDispatch, useSelector } from 'react-redux'
import {
  selectToastOpen,
  selectVisibleToast,
  toastDismissed,
  toastExited,
  type ToastVariant,
} from './toast-slice.ts'

const severityOf: Record<ToastVariant, AlertColor> = {
  default: 'info',
  destructive: 'error',
  success: 'success',
}

/** Shows the current toast; mount once, inside the store provider. */
export function Toaster() {
  const dispatch = useDispatch()
  const toast = useSelector(selectVisibleToast)
  const open = useSelector(selectToastOpen)
  if (!toast) return null

  const dismiss = () => dispatch(toastDismissed(toast.id))
  return (
    <Snackbar
      key={toast.id}
      open={open}
      autoHideDuration={toast.duration}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') dismiss()
      }}
      slotProps={{ transition: { onExited: () => dispatch(toastExited(toast.id)) } }}
    >
      <Alert
        severity={severityOf[toast.variant]}
        variant={toast.variant === 'destructive' ? 'filled' : 'standard'}
        role={toast.variant === 'destructive' ? 'alert' : 'status'}
        onClose={dismiss}
        elevation={6}
        sx={{ width: '100%', maxWidth: { sm: 420 } }}
      >
        <AlertTitle>{toast.title}</AlertTitle>
        {/* Its own element, so the description can be found (and read) apart from the title. */}
        {toast.description ? <div>{toast.description}</div> : null}
      </Alert>
    </Snackbar>
  )
}
