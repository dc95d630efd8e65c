import { useMemo } from 'react'
import { useAppDispatch } from '../../lib/store/index.ts'
import { toastAdded, toastDismissed, type ToastInput } from '../../lib/toast/toast-slice.ts'

/** The handlers of toasts' action buttons, by toast id (functions stay out of the store). */
const actions = new Map<string, () => void>()

/** Runs the action of toast `id`, once. */
export function runToastAction(id: string): void {
  const action = actions.get(id)
  actions.delete(id)
  action?.()
}

export function forgetToastAction(id: string): void {
  actions.delete(id)
}

export type ToastAction = { label: string; onClick: () => void }

export function useToast() {
  const dispatch = useAppDispatch()
  return useMemo(
    () => ({
      toast(input: ToastInput & { action?: ToastAction }) {
        const { action: button, ...rest } = input
        const action = dispatch(toastAdded({ ...rest, actionLabel: button?.label }))
        const id = action.payload.id
        if (button) actions.set(id, button.onClick)
        return { id, dismiss: () => dispatch(toastDismissed(id)) }
      },
      dismiss(id: string) {
        dispatch(toastDismissed(id))
      },
    }),
    [dispatch],
  )
}
