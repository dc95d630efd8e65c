import { useMemo } from 'react'
import { useDispatch } from 'react-redux'
import { toastAdded, toastDismissed, type ToastInput } from './toast-slice.ts'

export function useToast() {
  const dispatch = useDispatch()
  return useMemo(
    () => ({
      toast(input: ToastInput) {
        const action = dispatch(toastAdded(input))
        const id = action.payload.id
        return { id, dismiss: () => dispatch(toastDismissed(id)) }
      },
      dismiss(id: string) {
        dispatch(toastDismissed(id))
      },
    }),
    [dispatch],
  )
}
