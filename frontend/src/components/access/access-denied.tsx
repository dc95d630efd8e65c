import { Notice } from '../notice.tsx'

export function AccessDenied({ signedIn }: { signedIn: boolean }) {
  return (
    <Notice title="Access Denied" homeLink>
      {signedIn
        ? 'You do not have administrator privileges to view this page.'
        : 'You must be signed in as an administrator to view this page.'}
    </Notice>
  )
}
