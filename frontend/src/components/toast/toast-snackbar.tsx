import CloseIcon from '@mui/icons-material/Close'
import {
  Alert,
  AlertTitle,
  Button,
  IconButton,
  Snackbar,
  Stack,
  type AlertColor,
} from '@mui/material'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAppDispatch } from '../../lib/store/index.ts'
import {
  toastDismissed,
  toastExited,
  type Toast,
  type ToastVariant,
} from '../../lib/toast/toast-slice.ts'
import { forgetToastAction, runToastAction } from './use-toast.ts'

const severityOf: Record<ToastVariant, AlertColor> = {
  default: 'info',
  destructive: 'error',
  success: 'success',
}

/**
 * One toast, on screen while `open` and animating out after (src/components/toast/toaster.tsx
 * draws it with a key of its own for each toast): loaded when the first toast comes.
 */
export function ToastSnackbar({ toast, open }: { toast: Toast; open: boolean }) {
  const dispatch = useAppDispatch()
  const { t } = useTranslation()
  // Dismissed before this code was in, it was never on screen: it has nothing to animate out of.
  const [closedFromStart] = useState(!open)
  useEffect(() => {
    if (!closedFromStart) return
    forgetToastAction(toast.id)
    dispatch(toastExited(toast.id))
  }, [closedFromStart, dispatch, toast.id])

  const dismiss = () => dispatch(toastDismissed(toast.id))
  return (
    <Snackbar
      open={open}
      autoHideDuration={toast.duration}
      // At the top, under the header: at the bottom it covered the trainers' control bars.
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={{ top: { xs: 64, sm: 72 } }}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') dismiss()
      }}
      slotProps={{
        transition: {
          onExited: () => {
            forgetToastAction(toast.id)
            dispatch(toastExited(toast.id))
          },
        },
      }}
    >
      <Alert
        severity={severityOf[toast.variant]}
        variant={toast.variant === 'destructive' ? 'filled' : 'standard'}
        role={toast.variant === 'destructive' ? 'alert' : 'status'}
        onClose={dismiss}
        action={
          // An action replaces Alert's own close button, so the toast brings both.
          toast.actionLabel ? (
            <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, flexShrink: 0 }}>
              <Button
                color="inherit"
                size="small"
                sx={{ whiteSpace: 'nowrap', overflowWrap: 'normal' }}
                onClick={() => {
                  runToastAction(toast.id)
                  dismiss()
                }}
              >
                {toast.actionLabel}
              </Button>
              <IconButton color="inherit" size="small" aria-label={t('close')} onClick={dismiss}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </Stack>
          ) : undefined
        }
        elevation={6}
        // Long words wrap instead of pushing the toast off the screen.
        sx={{ width: '100%', maxWidth: { sm: 420 }, overflowWrap: 'anywhere', minWidth: 0 }}
      >
        <AlertTitle>{toast.title}</AlertTitle>
        {/* Its own element, so the description can be found (and read) apart from the title. */}
        {toast.description ? <div>{toast.description}</div> : null}
      </Alert>
    </Snackbar>
  )
}
