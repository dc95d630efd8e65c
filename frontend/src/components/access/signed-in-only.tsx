import type { ReactNode } from 'react'
import { useSelector } from 'react-redux'
import { selectIsSignedIn, selectSessionStatus } from '../../lib/session/session-slice.ts'
import { RestoringSession } from './restoring-session.tsx'

export function SignedInOnly({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const status = useSelector(selectSessionStatus)
  const signedIn = useSelector(selectIsSignedIn)
  if (signedIn) return children
  return status === 'restoring' ? <RestoringSession /> : fallback
}
