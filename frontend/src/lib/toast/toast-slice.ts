import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit'

export type ToastVariant = 'default' | 'destructive' | 'success'

export type ToastInput = {
  title: string
  description?: string
  variant?: ToastVariant
  /** How long the toast stays once shown, in milliseconds. */
  duration?: number
  /** A button on the toast (e.g. "Undo"); its handler lives outside the store (`use-toast.ts`). */
  actionLabel?: string
}

export type Toast = {
  id: string
  title: string
  description: string | null
  variant: ToastVariant
  duration: number
  actionLabel: string | null
}

export type ToastState = {
  /** The one toast on screen, kept while it animates out after being dismissed. */
  visible: Toast | null
  open: boolean
  waiting: Toast[]
}

export const defaultToastDuration = 5000

const initialState: ToastState = { visible: null, open: false, waiting: [] }

function sameContent(a: Toast, b: Toast): boolean {
  return a.title === b.title && a.description === b.description && a.variant === b.variant
}

export const toastSlice = createSlice({
  name: 'toast',
  initialState,
  reducers: {
    toastAdded: {
      reducer(state, action: PayloadAction<Toast>) {
        const toast = action.payload
        // A repeat of a toast already on screen or in line tells the user nothing new.
        const onScreen = state.open && state.visible !== null && sameContent(state.visible, toast)
        if (onScreen || state.waiting.some((t) => sameContent(t, toast))) return
        if (state.visible === null) {
          state.visible = toast
          state.open = true
        } else {
          // One toast at a time, the newest: the one on screen leaves and this one follows
          // as soon as it has animated out (an older message waiting behind would be stale).
          state.waiting = [toast]
          state.open = false
        }
      },
      prepare(input: ToastInput) {
        const toast: Toast = {
          id: nanoid(),
          title: input.title,
          description: input.description ?? null,
          variant: input.variant ?? 'default',
          duration: input.duration ?? defaultToastDuration,
          actionLabel: input.actionLabel ?? null,
        }
        return { payload: toast }
      },
    },
    toastDismissed(state, action: PayloadAction<string>) {
      if (state.visible?.id === action.payload) {
        state.open = false
      } else {
        state.waiting = state.waiting.filter((t) => t.id !== action.payload)
      }
    },
    /** The dismissed toast has finished animating out: the next one in line takes its place. */
    toastExited(state, action: PayloadAction<string>) {
      if (state.visible?.id !== action.payload || state.open) return
      const next = state.waiting.shift() ?? null
      state.visible = next
      state.open = next !== null
    },
  },
  selectors: {
    selectVisibleToast: (state) => state.visible,
    selectToastOpen: (state) => state.open,
  },
})

export const { toastAdded, toastDismissed, toastExited } = toastSlice.actions
export const { selectVisibleToast, selectToastOpen } = toastSlice.selectors
