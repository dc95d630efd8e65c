import { Notice } from '../notice.tsx'

export function SignInRequired({ title, message }: { title: string; message: string }) {
  return <Notice title={title}>{message}</Notice>
}
