import { forgetDrafts } from '../offline/draft-store.ts'
import { rememberUser } from '../session/remembered-user.ts'
import { clearPrivateCaches } from './private-caches.ts'

/**
 * Removes what this browser keeps of a user whose account is gone: their offline queues and
 * cards, their drafts, the remembered sign-in, and the service worker's copies of their data (the
 * app's own files stay precached).
 */
export async function forgetUser(userId: string): Promise<void> {
  rememberUser(null)
  try {
    const storage = window.localStorage
    // The user's queues end in their id (`crv.history.outbox.{id}`); their saved review cards
    // go on with a language (`crv.reviews.cards.{id}.{language}`).
    const theirs = (key: string) =>
      key.startsWith('crv.') &&
      (key.endsWith(`.${userId}`) || key.startsWith(`crv.reviews.cards.${userId}.`))
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i))
    for (const key of keys) if (key && theirs(key)) storage.removeItem(key)
  } catch {
    // Storage refused: nothing was kept there.
  }
  await Promise.all([forgetDrafts(userId), clearPrivateCaches()])
}
