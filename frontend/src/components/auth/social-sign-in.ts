/** Social sign-in through the OpenID Connect provider: a popup, with a full redirect as fallback. */

const startPath = '/api/auth/oidc/start'
export const popupName = 'crv-signin'
const popupWidth = 500
const popupHeight = 600
// The contract's pattern for returnTo: a path on this site, never `//host` or a backslash.
const returnToPattern = /^\/(?![/\\])[^\s\\]*$/
const returnToMaxLength = 512

export type PopupOutcome =
  | { kind: 'signedIn' }
  | { kind: 'failed'; code: unknown }
  | { kind: 'closed' }
  | { kind: 'aborted' }

type WindowFrame = Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'>

/** A 500×600 window centred over the app's window. */
export function popupFeatures(frame: WindowFrame): string {
  const left = Math.max(0, Math.round(frame.screenX + (frame.outerWidth - popupWidth) / 2))
  const top = Math.max(0, Math.round(frame.screenY + (frame.outerHeight - popupHeight) / 2))
  return `popup=yes,width=${popupWidth},height=${popupHeight},left=${left},top=${top}`
}

/** Where a redirect sign-in comes back to: the current page, when the contract accepts it. */
export function returnToOf(location: Pick<Location, 'pathname' | 'search'>): string {
  for (const candidate of [location.pathname + location.search, location.pathname]) {
    if (candidate.length <= returnToMaxLength && returnToPattern.test(candidate)) return candidate
  }
  return '/'
}

export function popupStartUrl(): string {
  return `${startPath}?mode=popup`
}

export function redirectStartUrl(location: Pick<Location, 'pathname' | 'search'>): string {
  return `${startPath}?mode=redirect&returnTo=${encodeURIComponent(returnToOf(location))}`
}

/** The callback page's report, if `event` is one: our own origin and `type: 'crv-auth'` only. */
export function authMessageOf(
  event: Pick<MessageEvent, 'origin' | 'data'>,
  origin: string,
): PopupOutcome | null {
  if (event.origin !== origin) return null
  const data: unknown = event.data
  if (typeof data !== 'object' || data === null) return null
  const message = data as Record<string, unknown>
  if (message.type !== 'crv-auth') return null
  return message.ok === true ? { kind: 'signedIn' } : { kind: 'failed', code: message.code }
}

/** Opens the sign-in popup; null when the browser blocked it. Call it from the click itself. */
export function openSignInPopup(): Window | null {
  return window.open(popupStartUrl(), popupName, popupFeatures(window))
}

// The callback page posts its report and closes itself at once: give the report time to arrive
// before reading a closed popup as 'closed without a word'.
const closedGraceMs = 300
const pollMs = 400

/** Waits for the popup's report, for the popup to be closed, or for `signal` (closes the popup). */
export function waitForPopup(popup: Window, signal: AbortSignal): Promise<PopupOutcome> {
  return new Promise((resolve) => {
    let settled = false
    let closedTimer: ReturnType<typeof setTimeout> | undefined
    const finish = (outcome: PopupOutcome) => {
      if (settled) return
      settled = true
      window.removeEventListener('message', onMessage)
      signal.removeEventListener('abort', onAbort)
      clearInterval(poll)
      clearTimeout(closedTimer)
      resolve(outcome)
    }
    const onMessage = (event: MessageEvent) => {
      const outcome = authMessageOf(event, window.location.origin)
      if (outcome) finish(outcome)
    }
    const onAbort = () => {
      if (!popup.closed) popup.close()
      finish({ kind: 'aborted' })
    }
    const poll = setInterval(() => {
      if (popup.closed && closedTimer === undefined) {
        closedTimer = setTimeout(() => finish({ kind: 'closed' }), closedGraceMs)
      }
    }, pollMs)
    window.addEventListener('message', onMessage)
    signal.addEventListener('abort', onAbort)
    if (signal.aborted) onAbort()
  })
}
