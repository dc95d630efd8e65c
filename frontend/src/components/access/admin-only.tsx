import type { ReactNode } from 'react'
import { useAppSelector } from '../../lib/store/index.ts'
import {
  selectIsAdmin,
  selectIsSignedIn,
  selectSessionStatus,
} from '../../lib/session/session-slice.ts'
import { AccessDenied } from './access-denied.tsx'
import { AccessRestricted } from './access-restricted.tsx'
import { RestoringSession } from './restoring-session.tsx'

type AdminOnlyProps = {
  /** Which refusal the page shows to everyone else: the spec words it per page. */
  refusal: 'denied' | 'restricted'
  children: ReactNode
}

export function AdminOnly({ refusal, children }: AdminOnlyProps) {
  const status = useAppSelector(selectSessionStatus)
  const signedIn = useAppSelector(selectIsSignedIn)
  const isAdmin = useAppSelector(selectIsAdmin)
  if (isAdmin) return children
  if (status === 'restoring') return <RestoringSession />
  return refusal === 'restricted' ? <AccessRestricted /> : <AccessDenied signedIn={signedIn} />
}
