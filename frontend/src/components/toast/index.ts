export { Toaster } from './toaster.tsx'
export { useToast } from './use-toast.ts'
export { defaultToastDuration, toastSlice } from './toast-slice.ts'
export type { ToastInput, ToastVariant } from './toast-slice.ts'
