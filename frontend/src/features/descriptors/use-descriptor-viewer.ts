import { useEffect } from 'react'
import { useAppDispatch } from '../../lib/store/index.ts'
import { useAuth } from '../../components/auth/index.ts'
import { descriptorsApi } from './api.ts'

// Who the descriptor data in the store was fetched for: a visitor's (null) or a user's. It lives
// as long as the store does, so a page that mounts after a sign-in elsewhere still notices.
let fetchedFor: string | null | undefined

/**
 * Who is looking at descriptors: undefined while the session is restored (decide and fetch nothing
 * yet), null for a visitor, else the user's id. When it changes, descriptor data fetched for the
 * previous viewer is dropped and refetched.
 */
export function useDescriptorViewer(): string | null | undefined {
  const { status, user } = useAuth()
  const dispatch = useAppDispatch()
  const viewer = status === 'restoring' ? undefined : (user?.id ?? null)
  useEffect(() => {
    if (viewer === undefined) return
    if (fetchedFor !== undefined && fetchedFor !== viewer) {
      dispatch(descriptorsApi.util.invalidateTags(['descriptors']))
    }
    fetchedFor = viewer
  }, [viewer, dispatch])
  return viewer
}
