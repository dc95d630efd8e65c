import { Notice } from '../notice.tsx'

export function AccessRestricted() {
  return (
    <Notice title="Access Restricted" homeLink>
      This feature is currently available to administrators only.
    </Notice>
  )
}
