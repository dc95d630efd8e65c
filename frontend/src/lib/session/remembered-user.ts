import type { SessionUser } from './session-slice.ts'

/**
 * The signed-in user this browser last knew, kept so that the app opened offline still knows
 * whose training it records. Only what the header shows is kept; never a token.
 */
const key = 'crv.session.user'

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

export function rememberUser(user: SessionUser | null): void {
  try {
    if (user) storage()?.setItem(key, JSON.stringify(user))
    else storage()?.removeItem(key)
  } catch {
    // Storage refused: the app still works online.
  }
}

export function rememberedUser(): SessionUser | null {
  try {
    const raw = storage()?.getItem(key)
    const user = raw ? (JSON.parse(raw) as Partial<SessionUser>) : null
    return user && typeof user.id === 'string' && typeof user.displayName === 'string'
      ? (user as SessionUser)
      : null
  } catch {
    return null
  }
}
