import { useAppSelector } from '../../lib/store/index.ts'
import { lazyPart, useLazyPart } from '../../lib/lazy-part.ts'
import { selectToastOpen, selectVisibleToast } from '../../lib/toast/toast-slice.ts'

// The toast's code (MUI's Snackbar, Alert…) is loaded when the first toast comes, or once the
// page is idle: it is no part of a first visit's scripts. Without a toast it draws nothing, in
// the pre-rendered page as in the app.
const snackbar = lazyPart(() => import('./toast-snackbar.tsx'))

/** Shows the current toast; mount once, inside the store provider. */
export function Toaster() {
  const toast = useAppSelector(selectVisibleToast)
  const open = useAppSelector(selectToastOpen)
  const Snackbar = useLazyPart(snackbar, toast !== null)
  if (!toast || !Snackbar) return null
  return <Snackbar.ToastSnackbar key={toast.id} toast={toast} open={open} />
}
