import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createStorage } from '@crv/kit/storage'
import type { ObjectStorage } from '@crv/kit/storage'
import { SpeechCacheUse, sweepSpeechCache } from '../src/speech/speech-cache.ts'

const DAY = 86_400_000

function storage(): ObjectStorage {
  return createStorage({ DATA_DIR: mkdtempSync(join(tmpdir(), 'crv-speech-cache-')) })
}

async function fill(store: ObjectStorage, count: number, size: number): Promise<string[]> {
  const keys: string[] = []
  for (let i = 0; i < count; i++) {
    const key = `speech/${String(i).padStart(4, '0')}.mp3`
    await store.put(key, Buffer.alloc(size, i), { contentType: 'audio/mpeg' })
    keys.push(key)
  }
  return keys
}

const speechKeys = async (store: ObjectStorage) =>
  (await store.list('speech/')).map((o) => o.key).sort()

describe('the speech cache sweep', () => {
  it('removes entries unused for longer than the TTL and keeps the gestalt clips', async () => {
    const store = storage()
    const keys = await fill(store, 3, 100)
    await store.put('gestalts/land.mp3', Buffer.alloc(100), { contentType: 'audio/mpeg' })
    const use = new SpeechCacheUse()
    // One was heard again recently; the others were made and never asked for since.
    const later = Date.now() + 31 * DAY
    use.touch(keys[1] ?? '', later - DAY)
    const report = await sweepSpeechCache(store, { maxBytes: 1e9, ttlMs: 30 * DAY }, use, later)
    expect(report).toMatchObject({ removed: 2, kept: 1 })
    expect(await speechKeys(store)).toEqual([keys[1]])
    expect(await store.head('gestalts/land.mp3')).not.toBeNull()
  })

  it('past the size budget removes the least recently used down to nine tenths of it', async () => {
    const store = storage()
    const keys = await fill(store, 10, 1000)
    const use = new SpeechCacheUse()
    const now = Date.now() + 1_000
    // Heard in the order 9, 8, …, 0: key 0 most recently.
    keys.forEach((key, i) => use.touch(key, now + (10 - i)))
    const report = await sweepSpeechCache(store, { maxBytes: 5000, ttlMs: 30 * DAY }, use, now)
    expect(report).toMatchObject({ removed: 6, kept: 4, keptBytes: 4000 })
    expect(await speechKeys(store)).toEqual(keys.slice(0, 4))
  })

  it('leaves a cache within its budget and TTL alone', async () => {
    const store = storage()
    const keys = await fill(store, 5, 1000)
    const report = await sweepSpeechCache(
      store,
      { maxBytes: 5000, ttlMs: 30 * DAY },
      new SpeechCacheUse(),
    )
    expect(report).toMatchObject({ removed: 0, kept: 5 })
    expect(await speechKeys(store)).toEqual(keys)
  })
})
