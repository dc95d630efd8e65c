// The social sign-in popup's last page (GET /api/auth/oidc/callback renders it with the result
// in <body data-result>). A file, not an inline script: the Content-Security-Policy allows only
// scripts from 'self'. It tells the opener the outcome (never a token: the session is in the
// httpOnly cookie) and closes; without an opener (the popup became a tab) it goes to the app.
/* global window, document, location */
;(() => {
  'use strict'
  let result = { ok: false, code: 'oidc_failed' }
  try {
    const parsed = JSON.parse(document.body.dataset.result || '')
    if (parsed && parsed.ok === true) result = { ok: true }
    else if (parsed && parsed.ok === false && typeof parsed.code === 'string')
      result = { ok: false, code: parsed.code }
  } catch {
    // A missing or broken result is a failure.
  }

  let opener = null
  try {
    opener = window.opener && !window.opener.closed ? window.opener : null
  } catch {
    opener = null
  }

  if (opener) {
    try {
      // Only to this origin: another site that opened this page learns nothing.
      opener.postMessage({ type: 'crv-auth', ...result }, location.origin)
      window.close()
      return
    } catch {
      // Fall through to the app in this window.
    }
  }
  location.replace(result.ok ? '/' : `/?authError=${encodeURIComponent(result.code)}`)
})()
