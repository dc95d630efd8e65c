import type { ReactNode } from 'react'
import { useAppSelector } from '../../lib/store/index.ts'
import { selectIsSignedIn, selectSessionStatus } from '../../lib/session/session-slice.ts'
import { RestoringSession } from './restoring-session.tsx'

export function SignedInOnly({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const status = useAppSelector(selectSessionStatus)
  const signedIn = useAppSelector(selectIsSignedIn)
  if (signedIn) return children
  return status === 'restoring' ? <RestoringSession /> : fallback
}
