export { Toaster } from './toaster.tsx'
export { useToast } from './use-toast.ts'
export type { ToastInput, ToastVariant } from '../../lib/toast/toast-slice.ts'
