/**
 * What a page asked to do after sign-in, kept across a redirect sign-in (the page reloads, so the
 * action itself cannot survive): the page's key and the text the user had typed.
 */
export type SignInResume = { key: string; draft: string }

type Saved = SignInResume & { savedAt: number }

export const resumeStorageKey = 'crv_sign_in_resume'
/** A redirect sign-in takes seconds; an intent older than this is from an abandoned attempt. */
export const resumeMaxAgeMs = 15 * 60 * 1000

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** The tab's session storage: it outlives a redirect to the provider and back. */
export function sessionStorageOrNothing(): Storage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

export function saveResume(storage: Store | undefined, resume: SignInResume, now: number): void {
  try {
    storage?.setItem(resumeStorageKey, JSON.stringify({ ...resume, savedAt: now }))
  } catch {
    // Without storage the draft cannot outlive the redirect; sign-in itself still works.
  }
}

function isSaved(value: unknown): value is Saved {
  if (typeof value !== 'object' || value === null) return false
  const saved = value as Record<string, unknown>
  return (
    typeof saved.key === 'string' &&
    typeof saved.draft === 'string' &&
    typeof saved.savedAt === 'number'
  )
}

function read(storage: Store | undefined): unknown {
  try {
    const raw = storage?.getItem(resumeStorageKey)
    return raw ? JSON.parse(raw) : null
  } catch {
    return undefined
  }
}

/** Returns and forgets the saved intent for `key`; stale or unreadable entries are dropped. */
export function takeResume(storage: Store | undefined, key: string, now: number): string | null {
  const saved = read(storage)
  if (saved === null) return null
  const fresh = isSaved(saved) && now - saved.savedAt <= resumeMaxAgeMs
  // Another page's intent waits for that page.
  if (fresh && saved.key !== key) return null
  try {
    storage?.removeItem(resumeStorageKey)
  } catch {
    // Nothing more to do: the entry expires on its own.
  }
  return fresh ? saved.draft : null
}
