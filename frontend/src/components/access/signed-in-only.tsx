import type { ReactNode } from 'react'
import { useSelector } from 'react-redux'
import { selectIsSignedIn } from '../../lib/session/session-slice.ts'

export function SignedInOnly({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const signedIn = useSelector(selectIsSignedIn)
  return signedIn ? children : fallback
}
