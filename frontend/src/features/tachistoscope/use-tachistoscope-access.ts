import { useAppSelector } from '../../lib/store/index.ts'
import {
  selectIsAdmin,
  selectIsSignedIn,
  selectSessionStatus,
} from '../../lib/session/session-slice.ts'
import { useGetAppSettingsQuery } from './api.ts'

export type TachistoscopeAccess = 'restoring' | 'allowed' | 'restricted'

/**
 * Who may use the tachistoscope, on the client: administrators, and every signed-in user when
 * the administrators' setting (admin panel → Settings) says so. The server decides for real (its
 * listings answer 403).
 */
export function useTachistoscopeAccess(): TachistoscopeAccess {
  const status = useAppSelector(selectSessionStatus)
  const isAdmin = useAppSelector(selectIsAdmin)
  const signedIn = useAppSelector(selectIsSignedIn)
  const settings = useGetAppSettingsQuery(undefined, { skip: isAdmin || !signedIn })
  if (isAdmin) return 'allowed'
  if (status === 'restoring') return 'restoring'
  if (!signedIn) return 'restricted'
  if (settings.isLoading) return 'restoring'
  return settings.data?.tachistoscopeAccess === 'user' ? 'allowed' : 'restricted'
}
