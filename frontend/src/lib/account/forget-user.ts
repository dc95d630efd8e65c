/**
 * Removes what this browser keeps of a user whose account is gone: their offline queues and
 * cards, the remembered sign-in, and the service worker's copies of their data (the app's own
 * files stay precached).
 */
export async function forgetUser(userId: string): Promise<void> {
  try {
    const storage = window.localStorage
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i))
    for (const key of keys) {
      if (
        key &&
        (key === 'crv.session.user' || (key.startsWith('crv.') && key.endsWith(`.${userId}`)))
      )
        storage.removeItem(key)
    }
    for (const key of keys)
      if (key?.startsWith(`crv.reviews.cards.${userId}`)) storage.removeItem(key)
  } catch {
    // Storage refused: nothing was kept there.
  }
  if (typeof caches === 'undefined') return
  try {
    for (const name of await caches.keys()) if (name === 'crv-data') await caches.delete(name)
  } catch {
    // No cache storage here.
  }
}
