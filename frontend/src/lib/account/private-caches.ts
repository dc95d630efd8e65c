/**
 * Removes the service worker's copies of signed-in users' data (frontend/vite.config.ts): API
 * answers kept under a user's id and custom gestalt clips, which live in a user's folder. What
 * everyone sees (the app's files, the category lists, the gestalt clips) stays for offline use.
 * Every signed-in user's copies go, not only the leaving one's: the next person at a shared
 * browser should find none.
 */
export async function clearPrivateCaches(): Promise<void> {
  if (typeof caches === 'undefined') return
  try {
    await removeEntries('crv-data', (url) => {
      const owner = url.searchParams.get('crv-user')
      return owner !== null && owner !== 'visitor'
    })
    await removeEntries('crv-audio', (url) =>
      decodeURIComponent(url.pathname).startsWith('/api/storage/o/custom_audio/'),
    )
  } catch {
    // No cache storage here, or it refused: the copies stay keyed per user.
  }
}

async function removeEntries(name: string, isPrivate: (url: URL) => boolean): Promise<void> {
  if (!(await caches.has(name))) return
  const cache = await caches.open(name)
  for (const request of await cache.keys())
    if (isPrivate(new URL(request.url))) await cache.delete(request)
}
